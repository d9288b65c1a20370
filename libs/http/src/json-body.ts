import type { FastifyInstance } from 'fastify';
import { ApiError, type FieldProblem } from './api-error';
import { MAX_INPUT_DEPTH } from './validation';

/**
 * What is wrong with a JSON text's size, found without parsing it: more members (object keys and
 * array elements, all levels together) than `budget`, or nesting deeper than MAX_INPUT_DEPTH; null
 * when neither. The scan stops at the first excess, so its work is bounded by the budget, not by
 * the body. Separators inside strings do not count; malformed JSON is left to the parser.
 */
export function jsonSizeProblem(text: string, budget: number): FieldProblem | null {
  let members = 0;
  let inString = false;
  // One entry per open container: OBJECT, or an array before (ARRAY_EMPTY) or after (ARRAY) its first element.
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === SPACE || c === LF || c === CR || c === TAB) continue;
    const top = open.length - 1;
    if (top >= 0 && open[top] === ARRAY_EMPTY && c !== CLOSE_ARRAY) {
      open[top] = ARRAY; // the first element starts here
      members++;
    }
    if (c === QUOTE) inString = true;
    else if (c === COLON) members++;
    else if (c === COMMA) {
      if (top >= 0 && open[top] === ARRAY) members++;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      open.push(c === OPEN_ARRAY ? ARRAY_EMPTY : OBJECT);
      if (open.length > MAX_INPUT_DEPTH) return { field: 'body', message: `body is nested more than ${MAX_INPUT_DEPTH} levels deep` };
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) open.pop();
    if (members > budget) return { field: 'body', message: `body holds more than ${budget} keys and array elements` };
  }
  return null;
}

/**
 * The elements of a JSON array text, each as its own text, in order, to be parsed one at a time
 * (`JSON.parse(element)`): a route can then take a large array in slices. The array's structure is
 * checked as it is scanned (a body that is no array, or unbalanced, throws `NotJsonArray`), and so
 * are its limits: elements nested more than MAX_INPUT_DEPTH levels, and more than `maxMembers`
 * members (keys and array elements, all levels) in all, throw a 400 naming the body. What is inside
 * an element (its strings, numbers, literals) is left to `JSON.parse`.
 */
export function* jsonArrayElements(text: string, maxMembers: number): Generator<string, void, void> {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_ARRAY) throw new NotJsonArray();
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_ARRAY) {
    if (skipSpace(text, i + 1) !== text.length) throw new NotJsonArray();
    return;
  }
  let members = 0;
  for (;;) {
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        // The outer array is the first level.
        if (++depth >= MAX_INPUT_DEPTH) throw ApiError.validation([{ field: 'body', message: `body is nested more than ${MAX_INPUT_DEPTH} levels deep` }]);
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        if (depth === 0) break;
        depth--;
      } else if (c === COMMA) {
        if (depth === 0) break;
        members++;
      } else if (c === COLON) members++;
    }
    if (i >= text.length || inString) throw new NotJsonArray();
    if (++members > maxMembers) throw ApiError.validation([{ field: 'body', message: `body holds more than ${maxMembers} keys and array elements` }]);
    yield text.slice(start, i);
    if (text.charCodeAt(i) === CLOSE_ARRAY) {
      if (skipSpace(text, i + 1) !== text.length) throw new NotJsonArray();
      return;
    }
    if (text.charCodeAt(i) !== COMMA) throw new NotJsonArray();
    i = skipSpace(text, i + 1);
  }
}

/** A body that is no JSON array (or no JSON at all): the route says which it wanted. */
export class NotJsonArray extends Error {
  override readonly name = 'NotJsonArray';
  constructor() {
    super('The body is not a JSON array');
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== LF && c !== CR && c !== TAB) break;
  }
  return i;
}

const OBJECT = 0;
const ARRAY_EMPTY = 1;
const ARRAY = 2;
const [BACKSLASH, QUOTE, SPACE, LF, CR, TAB, COLON, COMMA, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [...'\\" \n\r\t:,[]{}'].map((ch) => ch.charCodeAt(0));

/**
 * The JSON body parser: bodies over the member budget, or nested too deeply, are refused (400) before they are parsed,
 * so a request's work is bounded whatever it sends; the rest are parsed with `JSON.parse`, which
 * keeps a `__proto__` key as an ordinary own property: the validation pipe then refuses it, like
 * every name of `Object.prototype`, as a property that should not exist.
 */
export function installJsonBodyParser(fastify: FastifyInstance, maxMembers: number): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(new ApiError(400, 'VALIDATION_ERROR', 'The JSON body is empty'), undefined);
    // A route that reads its JSON itself, in slices (`jsonText`), takes the text: its limits are its own.
    if (bodyRouteConfig(request.routeOptions?.config).jsonText) return done(null, text);
    const problem = jsonSizeProblem(text, bodyRouteConfig(request.routeOptions?.config).bodyMaxKeys ?? maxMembers);
    if (problem) return done(ApiError.validation([problem]), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, 'VALIDATION_ERROR', 'The body is not valid JSON'), undefined);
    }
  });
}

/**
 * What a bulk route may set with Nest's `@RouteConfig(...)` (e.g. agent-analytics ingestion): a
 * larger body (`bodyLimit`, bytes), a larger member budget (`bodyMaxKeys`), NDJSON bodies
 * (`ndjson`: `application/x-ndjson` arrives as its text; refused with 415 on every other route),
 * and JSON taken as text (`jsonText`).
 */
export interface BodyRouteConfig {
  bodyLimit?: number;
  bodyMaxKeys?: number;
  ndjson?: boolean;
  /**
   * `application/json` arrives as its text (within `bodyLimit`), for a route that parses a large
   * body a slice at a time (`jsonArrayElements`), so that other requests are served meanwhile: one
   * `JSON.parse` of megabytes holds every request of the process for as long as it takes.
   */
  jsonText?: boolean;
}

function bodyRouteConfig(config: unknown): BodyRouteConfig {
  return (config ?? {}) as BodyRouteConfig;
}

/**
 * Applies the routes' `BodyRouteConfig`: the body limit of a route that sets one (an `onRoute`
 * hook: call it before routes are registered), and the NDJSON parser for the routes that opt in.
 */
export function installRouteBodyOptions(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = bodyRouteConfig(route.config).bodyLimit;
    if (limit !== undefined) route.bodyLimit = limit;
  });
  fastify.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (request, body, done) => {
    if (!bodyRouteConfig(request.routeOptions?.config).ndjson) return done(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'This operation takes application/json'), undefined);
    done(null, body);
  });
}
