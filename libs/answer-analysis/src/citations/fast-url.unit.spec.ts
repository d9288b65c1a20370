import { normaliseUrl, parseNormalise } from './normalise-url';

/** The fast path must give exactly what the WHATWG parser gives, or defer to it. */
describe('normaliseUrl fast path', () => {
  const pieces = ['a', 'B', '0', '-', '.', '..', '/', '//', '?', '&', '=', '#', '%', '%2e', '%41', "'", '(', ')', '~', '_', ':', '@', ' ', '\\', '|', '^', '`', '{', 'é', 'utm_x=1', 'UTM_y=2', '!', '$', '*', '+', ',', ';'];
  const hosts = ['example.com', 'WWW.Example.COM', 'a.b.co.uk', 'x.com.', '127.0.0.1', 'xn--bcher-kva.de', 'a..b', '-a.com', 'localhost', 'h_st.com', 'a.com:8080', 'u@a.com'];
  it('agrees with the WHATWG parser on generated URLs', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let k = 0; k < 5000; k++) {
      let tail = '';
      const parts = rand(8);
      for (let p = 0; p < parts; p++) tail += pieces[rand(pieces.length)];
      const url = `${rand(2) === 0 ? 'https' : 'HTTP'}://${hosts[rand(hosts.length)]}${rand(4) === 0 ? '' : '/'}${tail}`;
      expect([url, normaliseUrl(url)]).toEqual([url, parseNormalise(url.trim())]);
    }
  });
});
