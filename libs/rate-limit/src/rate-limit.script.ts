/**
 * The one Redis script every API process runs for rate limiting. It is atomic (Redis runs a
 * script alone), uses Redis's clock (so processes with skewed clocks share one budget), and
 * handles any number of limits on one call:
 *
 *   KEYS[i]          the limit's key (the caller puts every key of one call in one hash slot)
 *   ARGV[1]          mode: "take" checks every limit and consumes one from each only when all
 *                    allow it (a rejected request spends nothing); "take:<n>:<share>" the
 *                    same but consumes up to n from each, and at most <share> of what the
 *                    tightest limit has left (at least one): a lease of requests for one
 *                    process, sized on the budget as it is now; "peek" only reports;
 *                    "spend" consumes one from each regardless (clamped at zero), e.g. to count
 *                    a failed authentication
 *   ARGV[2 + 3(i-1)] kind of limit i: "b" token bucket, "c" counter that expires
 *   ARGV[3 + 3(i-1)] capacity (bucket size, or the counter's maximum)
 *   ARGV[4 + 3(i-1)] bucket: refill in tokens per minute; counter: its lifetime in ms (set on
 *                    first use, e.g. until the end of the UTC day)
 *
 * Returns {allowed (1|0), then per limit: remaining, ms until one more is allowed, ms until full,
 * then how many were consumed}.
 * A bucket is stored as a hash {t = tokens (float), ts = ms}; it expires once it would be full.
 */
export const RATE_LIMIT_SCRIPT = `
local mode = ARGV[1]
local want = 1
local share = 0
local leaseWant, leaseShare = string.match(mode, '^take:(%d+):([%d%.]+)$')
if leaseWant then
  want = math.max(1, math.floor(tonumber(leaseWant)))
  share = tonumber(leaseShare) or 0
  mode = 'take'
end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local n = #KEYS
local level = {}
local allowed = 1
for i = 1, n do
  local kind = ARGV[3 * i - 1]
  local capacity = tonumber(ARGV[3 * i])
  if kind == 'b' then
    local state = redis.call('HMGET', KEYS[i], 't', 'ts')
    local tokens = tonumber(state[1])
    local ts = tonumber(state[2])
    if tokens == nil or ts == nil then
      tokens = capacity
    elseif now > ts then
      tokens = math.min(capacity, tokens + (now - ts) * tonumber(ARGV[3 * i + 1]) / 60000)
    end
    level[i] = tokens
    if tokens < 1 then allowed = 0 end
  else
    local used = tonumber(redis.call('GET', KEYS[i]) or '0')
    level[i] = capacity - used
    if level[i] < 1 then allowed = 0 end
  end
end
local consume = (mode == 'take' and allowed == 1) or mode == 'spend'
local take = 0
if consume then
  take = 1
  if mode == 'take' and want > 1 then
    local least = level[1]
    for i = 2, n do least = math.min(least, level[i]) end
    take = math.max(1, math.min(want, math.floor(least * share)))
  end
end
local out = { allowed }
for i = 1, n do
  local kind = ARGV[3 * i - 1]
  local capacity = tonumber(ARGV[3 * i])
  local arg = tonumber(ARGV[3 * i + 1])
  local left = level[i]
  if kind == 'b' then
    if consume then
      left = math.max(0, left - take)
      local full = math.ceil((capacity - left) * 60000 / arg)
      redis.call('HSET', KEYS[i], 't', tostring(left), 'ts', now)
      redis.call('PEXPIRE', KEYS[i], math.max(1, full))
    end
    local next = 0
    if left < 1 then next = math.ceil((1 - left) * 60000 / arg) end
    out[#out + 1] = math.floor(left)
    out[#out + 1] = next
    out[#out + 1] = math.ceil((capacity - left) * 60000 / arg)
  else
    local ttl = -1
    if consume then
      local used = redis.call('INCRBY', KEYS[i], take)
      if used == take then
        redis.call('PEXPIRE', KEYS[i], arg)
        ttl = arg
      end
      left = math.max(0, capacity - used)
    end
    if left >= capacity then
      ttl = 0
    elseif ttl < 0 then
      ttl = redis.call('PTTL', KEYS[i])
      if ttl < 0 then ttl = arg end
    end
    local next = 0
    if left < 1 then next = ttl end
    out[#out + 1] = math.floor(left)
    out[#out + 1] = next
    out[#out + 1] = ttl
  end
end
out[#out + 1] = take
return out
`;
