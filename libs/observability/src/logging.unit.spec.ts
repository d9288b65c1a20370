import { prettyLogs } from './logging.module';

describe('log format', () => {
  it('is pretty on a terminal with auto, JSON otherwise, and as set when set', () => {
    expect(prettyLogs({ logFormat: 'auto' }, { isTTY: true })).toBe(true);
    expect(prettyLogs({ logFormat: 'auto' }, { isTTY: undefined })).toBe(false);
    expect(prettyLogs({ logFormat: 'json' }, { isTTY: true })).toBe(false);
    expect(prettyLogs({ logFormat: 'pretty' }, { isTTY: false })).toBe(true);
  });
});
