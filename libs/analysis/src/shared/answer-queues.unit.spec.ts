import { answerRetryDelay } from './answer-queues';
import { EngineError, retryAfterMs } from './engines/answer-engine';

describe('answer retries', () => {
  const middle = () => 0.5; // no jitter

  it('backs off exponentially from the base delay', () => {
    expect([1, 2, 3, 4].map((attempt) => answerRetryDelay(attempt, 2000, new EngineError('unavailable', '503'), middle))).toEqual([2000, 4000, 8000, 16000]);
  });

  it('waits at least what Retry-After asks, and no less than the backoff when it asks for less', () => {
    expect(answerRetryDelay(1, 100, new EngineError('rate_limited', '429', 2000), middle)).toBe(2000);
    expect(answerRetryDelay(4, 2000, new EngineError('rate_limited', '429', 1000), middle)).toBe(16000);
  });

  it('jitters by at most a fifth either way', () => {
    expect(answerRetryDelay(1, 1000, new Error('x'), () => 0)).toBe(800);
    expect(answerRetryDelay(1, 1000, new Error('x'), () => 0.999999)).toBe(1200);
  });

  it('retries rate limits, outages and timeouts only', () => {
    expect(['rate_limited', 'unavailable', 'timeout'].every((k) => new EngineError(k as 'timeout', '').retryable)).toBe(true);
    expect(['rejected', 'malformed', 'refused'].some((k) => new EngineError(k as 'refused', '').retryable)).toBe(false);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('0.5')).toBe(500);
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(retryAfterMs('Wed, 25 Nov 2026 12:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
  });
});
