import { deciderSpec, EventDecodeError, eventDecoder, fold, type Decider } from '.';

type Event = { type: 'opened'; data: { by: string } } | { type: 'added'; data: { amount: number; note: string | null } };
type Command = { kind: 'open'; by: string } | { kind: 'add'; amount: number };
type State = { open: boolean; total: number };

class Refused extends Error {}

const tally: Decider<State, Command, Event> = {
  initialState: { open: false, total: 0 },
  evolve: (state, event) => (event.type === 'opened' ? { ...state, open: true } : { ...state, total: state.total + event.data.amount }),
  decide(command, state) {
    if (command.kind === 'open') {
      if (state.open) throw new Refused('already open');
      return [{ type: 'opened', data: { by: command.by } }];
    }
    if (!state.open) throw new Refused('not open');
    return [{ type: 'added', data: { amount: command.amount, note: null } }];
  },
};

const opened: Event = { type: 'opened', data: { by: 'ana' } };
const added = (amount: number): Event => ({ type: 'added', data: { amount, note: null } });

describe('fold', () => {
  it('evolves from the initial state, or from a given one', () => {
    expect(fold(tally, [opened, added(2), added(3)])).toEqual({ open: true, total: 5 });
    expect(fold(tally, [added(1)], { open: true, total: 10 })).toEqual({ open: true, total: 11 });
    expect(fold(tally, [])).toBe(tally.initialState);
  });
});

describe('deciderSpec', () => {
  const spec = deciderSpec(tally);

  it('then: the decision is exactly the expected events, and returns the state after them', () => {
    expect(spec.given([opened, added(2)]).when({ kind: 'add', amount: 4 }).then([added(4)])).toEqual({ open: true, total: 6 });
  });

  it('then fails when the events differ or the decider refuses', () => {
    expect(() => spec.given([opened]).when({ kind: 'add', amount: 4 }).then([added(5)])).toThrow();
    expect(() => spec.given([]).when({ kind: 'add', amount: 4 }).then([added(4)])).toThrow(/refused/);
  });

  it('thenError: the refusal matches, or the spec fails', () => {
    const error = spec.given([opened]).when({ kind: 'open', by: 'bo' }).thenError((e): e is Refused => e instanceof Refused);
    expect(error.message).toBe('already open');
    expect(() => spec.given([]).when({ kind: 'open', by: 'bo' }).thenError(() => true)).toThrow(/expected a refusal/);
    expect(() => spec.given([opened]).when({ kind: 'open', by: 'bo' }).thenError((e) => e instanceof TypeError)).toThrow('already open');
  });
});

describe('eventDecoder', () => {
  const events = eventDecoder<Event>({ opened: { by: 'string' }, added: { amount: 'number', note: 'string?' } });

  it('types a member of the union and says null for another module’s event', () => {
    expect(events.types).toEqual(['opened', 'added']);
    const decoded = events.decode({ type: 'added', data: { amount: 3, note: null, extra: true } });
    expect(decoded?.type === 'added' && decoded.data.amount).toBe(3);
    expect(events.decode({ type: 'webhook.sent', data: {} })).toBeNull();
    expect(events.is({ type: 'opened', data: {} })).toBe(true);
    expect(events.is({ type: 'closed', data: {} })).toBe(false);
  });

  it('refuses data that does not fit the member, naming every problem', () => {
    const attempt = () => events.decode({ type: 'added', data: { amount: '3', note: 7 } });
    expect(attempt).toThrow(EventDecodeError);
    expect(attempt).toThrow('added: amount is not a number; note is not string or null');
    expect(() => events.decode({ type: 'added', data: { note: null } })).toThrow('amount is missing');
    expect(() => events.decode({ type: 'added', data: { amount: Number.NaN, note: null } })).toThrow('amount is not a number');
    expect(() => events.decode({ type: 'opened', data: null })).toThrow('data is not an object');
    expect(() => events.decode({ type: 'opened', data: { by: null } })).toThrow('by is missing');
  });
});
