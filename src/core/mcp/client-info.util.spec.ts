import { clientInfoFromParams, parseClientInfo } from './client-info.util';

describe('client info', () => {
  it('takes string name and version', () => {
    expect(parseClientInfo({ name: 'claude-code', version: '2.1.0', title: 'x' })).toEqual({
      name: 'claude-code',
      version: '2.1.0',
    });
    expect(parseClientInfo({ name: 'n' })).toEqual({ name: 'n', version: '' });
    expect(parseClientInfo({ name: 'n', version: 3 })).toEqual({ name: 'n', version: '' });
  });
  it('refuses anything without a usable string name', () => {
    for (const value of [
      null,
      undefined,
      'name',
      ['n'],
      {},
      { name: 5 },
      { name: { a: 1 } },
      { name: ' \u0000 ' },
    ])
      expect(parseClientInfo(value)).toBeNull();
  });
  it('drops control characters and bounds lengths', () => {
    const info = parseClientInfo({
      name: `a\u001b[31mb\nc${'x'.repeat(5000)}`,
      version: `1\r\n${'9'.repeat(500)}`,
    });
    expect(info!.name).toMatch(/^a\[31mbcx+$/);
    expect(info!.name).toHaveLength(100);
    expect(info!.version).toHaveLength(50);
    expect(info!.version.startsWith('19')).toBe(true);
  });
  it('reads the 2026-07-28 envelope key from raw params', () => {
    const params = {
      name: 't',
      _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' } },
    };
    expect(clientInfoFromParams(params)).toEqual({ name: 'c', version: '1' });
    expect(clientInfoFromParams({ name: 't' })).toBeNull();
    expect(clientInfoFromParams({ _meta: [] })).toBeNull();
    expect(clientInfoFromParams(undefined)).toBeNull();
  });
});
