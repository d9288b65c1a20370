import { h } from 'preact';
import htm from 'htm';

/** JSX-like templates without a build step of their own: html`<p>${text}</p>` (htm over Preact). */
export const html = htm.bind(h);
