import { AdminUsageError, checkCommandLine, readCommandLine } from './admin-command-line';

describe('the admin command line', () => {
  it("reads every command's flags and arguments", () => {
    expect(readCommandLine('export', ['export', '--program', 'p1', '--out', 'e.jsonl', '--digest', 'd.json']).values).toEqual({ program: 'p1', out: 'e.jsonl', digest: 'd.json' });
    expect(readCommandLine('verify', ['verify', '--proof', 'p.json', '--key', 'aa', '--key', 'bb']).values).toEqual({ proof: 'p.json', key: ['aa', 'bb'] });
    expect(readCommandLine('verify', ['verify', '--file=e.jsonl']).values).toEqual({ file: 'e.jsonl' });
    expect(readCommandLine('digest', ['digest', '--out', 'd.json']).values).toEqual({ out: 'd.json' });
    expect(readCommandLine('replay', ['replay', '--feed']).values).toEqual({ feed: true });
    expect(readCommandLine('replay', ['replay']).values).toEqual({});
    expect(readCommandLine('listen', ['listen', '--api-key', 'k', '--forward-to', 'http://x/', '--events', 'card.created', '--base-url', 'http://y/']).values).toEqual({
      'api-key': 'k',
      'forward-to': 'http://x/',
      events: 'card.created',
      'base-url': 'http://y/',
    });
    expect(readCommandLine('create-program', ['create-program', 'Acme', 'Travel']).positionals).toEqual(['Acme', 'Travel']);
    expect(readCommandLine('revoke-key', ['revoke-key', 'p1', 'k1']).positionals).toEqual(['p1', 'k1']);
  });

  it.each([
    [['verify', '--disgest', 'd.json'], /verify: Unknown option '--disgest'/],
    [['digest', '--out'], /digest: Option '--out <value>' argument missing/],
    [['export', '--program', '--out', 'e.jsonl'], /export: Option '--program' argument is ambiguous/],
    [['replay', '--feed=yes'], /replay: Option '--feed' does not take an argument/],
    [['issue-key', 'p1', 'p2'], /issue-key does not take p2/],
    [['list-programs', '--all'], /list-programs: Unknown option '--all'/],
    [['listen', '--api-key', 'k', '--forward'], /listen: Unknown option '--forward'/],
    [['rotate-keys'], /Unknown command rotate-keys/],
  ])('refuses %j with a usage error naming what is wrong', (args, message) => {
    let thrown: unknown;
    try {
      checkCommandLine(args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AdminUsageError);
    expect((thrown as Error).message).toMatch(message);
  });
});
