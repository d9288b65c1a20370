declare module 'wink-sentiment/src/afinn-en-165.js' {
  const afinn: Readonly<Record<string, number>>;
  export default afinn;
}
