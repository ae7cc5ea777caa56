import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';
import { describeNeeding, eventually } from '@ledger/test-support';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The built dashboard in real headless Chromium (Debian's `chromium`, driven by playwright-core)
 * against the whole service, for the dashboard specs: everything the page shows came through the
 * public API with the api-key typed into it. DASHBOARD_SCREENSHOTS=docs/dashboard also saves a PNG
 * of each page.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = path.resolve(__dirname, '../../..');
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS ? path.resolve(ROOT, process.env.DASHBOARD_SCREENSHOTS) : null;

export const describeWithChromium = describeNeeding(existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

/** A service with its own dashboard build, and a Chromium page on it. */
export interface DashboardInBrowser {
  readonly t: TestLedger;
  readonly page: Page;
  stop(): Promise<void>;
}

export async function startDashboardInBrowser(env: Record<string, string> = {}): Promise<DashboardInBrowser> {
  // Its own build, so an `npm run build` elsewhere (npm-start.spec empties dist/) cannot pull it away.
  const builtDir = mkdtempSync(path.join(tmpdir(), 'dashboard-'));
  execFileSync(process.execPath, [path.join(ROOT, 'apps/dashboard/build.mjs'), '--out', builtDir], { cwd: ROOT, stdio: 'pipe' });
  process.env.DASHBOARD_DIR = builtDir;
  let t: TestLedger | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    await t?.stop();
    delete process.env.DASHBOARD_DIR;
    rmSync(builtDir, { recursive: true, force: true });
  };
  try {
    t = await startTestLedger(env);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    return { t, page, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Saves a full-page PNG named `name` when DASHBOARD_SCREENSHOTS names a folder. */
export async function shoot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export async function openPage(page: Page, t: TestLedger, route: string): Promise<void> {
  await page.goto(`${t.baseUrl}/dashboard#/${route}`);
}

/** Types the api-key into the sign-in form and waits for the first page. */
export async function signIn(page: Page, t: TestLedger): Promise<void> {
  await page.goto(`${t.baseUrl}/dashboard`);
  await page.getByLabel('Api-key').fill(t.apiKey);
  await page.getByRole('button', { name: 'Open dashboard' }).click();
  await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor();
}

/** The outcome the simulate page shows for the action it just sent: its error, or its "Done". */
export async function outcomeInPage(page: Page): Promise<string> {
  const outcome = page.locator('#main').getByRole('alert').or(page.locator('#main').getByRole('status').filter({ hasText: 'Done' }));
  return outcome.first().innerText();
}

/** Authorizes on the simulate page, in the browser, and answers what the page says about it. */
export async function authorizeInPage(page: Page, t: TestLedger, amount: string, descriptor: string): Promise<string> {
  await openPage(page, t, 'simulate');
  await page.getByLabel('Amount', { exact: true }).first().fill(amount);
  await page.getByLabel('Descriptor', { exact: true }).first().fill(descriptor);
  const answered = page.waitForResponse((response) => response.url().endsWith('/v1/simulate/authorize'));
  await page.getByRole('button', { name: 'Authorize' }).click();
  await answered;
  return outcomeInPage(page);
}

/** Waits until the element's text contains the expected text (the page updates on its own). */
export async function expectText(locator: ReturnType<Page['locator']>, text: string): Promise<void> {
  await eventually(`"${text}" to show`, async () => (await locator.first().innerText()).includes(text), 15_000);
}
