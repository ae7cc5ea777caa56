import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandHandlers, handlersWithoutSpecs } from './handler-specs';

const repositoryRoot = path.resolve(__dirname, '../..');

describe('the command handlers of the libraries', () => {
  it('are all found, and told apart by whether they decide on the event store', () => {
    // A scan that silently found nothing would pass the check below.
    const handlers = commandHandlers(repositoryRoot);
    expect(handlers).toContainEqual({ name: 'AuthorizeCardSpendHandler', file: 'libs/card-service/src/card-spend/authorize-card-spend.handler.ts', onEventStore: true });
    expect(handlers).toContainEqual({ name: 'ResendWebhookMessageHandler', file: 'libs/webhooks/src/delivery/resend.handler.ts', onEventStore: false });
    expect(handlers.length).toBeGreaterThan(40);
  });

  it('each have a spec where they live: on the in-memory store when they decide on the event store', () => {
    expect(handlersWithoutSpecs(repositoryRoot)).toEqual([]);
  });
});

describe('the check, on planted handlers', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'handler-specs-'));
    const files: Record<string, string> = {
      'libs/a/src/covered.handler.ts': "@CommandHandler(A)\nexport class CoveredHandler {\n  constructor(@Inject(PIPELINE_ENVIRONMENT) env: unknown) {}\n}\n",
      'libs/a/src/covered.handler.spec.ts': 'const spec = ledgerHandlerSpecification({ handler: (env) => new CoveredHandler(env) });\n',
      'libs/a/src/named-only.handler.ts': "@CommandHandler(B)\nexport class NamedOnlyHandler {\n  constructor(@Inject(PIPELINE_ENVIRONMENT) env: unknown) {}\n}\n",
      'libs/a/src/named-only.spec.ts': "it('runs NamedOnlyHandler on PostgreSQL', () => undefined);\n",
      'libs/b/src/tables.handlers.ts':
        '@CommandHandler(C)\nexport class OnTablesHandler {\n  constructor(private readonly pool: Pool) {}\n}\n\n@CommandHandler(D)\nexport class UnnamedHandler {\n  constructor(private readonly pool: Pool) {}\n}\n',
      'libs/b/src/tables.spec.ts': 'new OnTablesHandler(pool);\n',
      'libs/b/node_modules/pkg/x.handler.ts': '@CommandHandler(E)\nexport class VendoredHandler {}\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names a handler on the event store whose spec is not on the in-memory store, and one no spec names', () => {
    expect(handlersWithoutSpecs(root).sort()).toEqual(['NamedOnlyHandler (libs/a/src/named-only.handler.ts)', 'UnnamedHandler (libs/b/src/tables.handlers.ts)']);
  });
});
