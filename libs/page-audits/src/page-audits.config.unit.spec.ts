import { ConfigError, loadConfig, sectionOf } from '@libs/config';
import { PAGE_AUDITS_CONFIG } from './page-audits.config';

describe('PAGE_AUDIT_DNS_SERVERS', () => {
  it('is unset by default (the system resolver), or a list of address[:port]', () => {
    expect(sectionOf(loadConfig({}, [PAGE_AUDITS_CONFIG]), PAGE_AUDITS_CONFIG).dnsServers).toBeNull();
    expect(sectionOf(loadConfig({ PAGE_AUDIT_DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[2606:4700:4700::1111]:53' }, [PAGE_AUDITS_CONFIG]), PAGE_AUDITS_CONFIG).dnsServers).toEqual([
      '1.1.1.1',
      '127.0.0.1:5353',
      '[2606:4700:4700::1111]:53',
    ]);
  });

  it('refuses a name or a bad port, naming the variable', () => {
    for (const value of ['dns.google', '127.0.0.1:0', '10.0.0.1:70000', ' , ']) {
      let error: unknown;
      try {
        loadConfig({ PAGE_AUDIT_DNS_SERVERS: value }, [PAGE_AUDITS_CONFIG]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^PAGE_AUDIT_DNS_SERVERS: must be a comma list of address\[:port\]/)]);
    }
  });
});
