/** Errors the library throws on input it cannot give a defined result for. */
export class AnswerAnalysisError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The tracked entities are unusable: not an array, a missing id or name, a duplicate id, an unknown kind. */
export class InvalidEntitiesError extends AnswerAnalysisError {}

/** The answer input is not of the expected shape (answer not a string, citations not a list). */
export class InvalidAnswerInputError extends AnswerAnalysisError {}
