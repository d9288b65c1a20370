/** Stylesheets imported for their side effect: esbuild bundles them into the page's one stylesheet. */
declare module '*.css';
