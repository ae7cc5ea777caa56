import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_V8_FLAGS } from './node-flags';

const root = path.join(__dirname, '../../..');

/** Every `node` command line in a text: what follows `node` up to the script it runs. */
function nodeCommandLines(text: string): string[] {
  return [...text.matchAll(/\bnode ((?:--?[\w-]+(?:=\S*)? )+)\S+\.js/g)].map((match) => match[1]);
}

/** The text's first `node` command line passes every one of the flags. */
function expectServiceFlags(text: string): void {
  const [command] = nodeCommandLines(text);
  expect(command).toBeDefined();
  for (const flag of SERVICE_V8_FLAGS) expect(command.split(' ')).toContain(flag);
}

describe('SERVICE_V8_FLAGS', () => {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const starts = Object.entries(scripts).filter(([name]) => name === 'start' || name.startsWith('start:'));

  it('finds every start script of package.json', () => {
    expect(starts.map(([name]) => name).sort()).toEqual(['start', 'start:card-service', 'start:gateway', 'start:projector', 'start:transaction-service', 'start:webhooks']);
  });

  it.each(starts)('is what package.json %s runs the service with', (_name, script) => {
    expectServiceFlags(script);
  });

  it("is what the Dockerfile's CMD runs the service with", () => {
    const cmd = readFileSync(path.join(root, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('CMD '));
    expect(cmd).toHaveLength(1);
    expectServiceFlags(cmd[0]);
  });
});
