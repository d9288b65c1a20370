/** Pure event-sourcing kit: deciders, folds, typed event decoders, and the given/when/then helper for decider specs. */
export { fold, type Decider } from './decider';
export { EventDecodeError, eventDecoder, type DataShape, type FieldKind, type StoredEventLike, type UnionShapes } from './event-decoder';
export { deciderSpec, type DeciderSpec } from './decider-spec';
