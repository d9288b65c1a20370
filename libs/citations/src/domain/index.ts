export * from './citation-terms';
export * from './answer-changes';
export * from './discovered-questions';
