// Real headless browsers over WebDriver: Debian's Chromium with its chromedriver, Firefox ESR with
// geckodriver (from `cargo install geckodriver`). Nothing is downloaded: driver paths are explicit,
// from CHROMIUM_PATH, CHROMEDRIVER, FIREFOX_PATH and GECKODRIVER when set (`cargo xtask test` sets
// them to what its setup found), else the usual places and PATH.
import { Builder, Browser } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';
import firefox from 'selenium-webdriver/firefox.js';
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir, homedir } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';

function which(name, env, fallbacks) {
  const given = process.env[env];
  if (given) {
    if (!existsSync(given)) throw new Error(`${env}=${given}: no such file`);
    return given;
  }
  for (const p of fallbacks) if (existsSync(p)) return p;
  try {
    return execSync(`command -v ${name}`, { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${name} not found: run \`cargo xtask setup\``);
  }
}

export const BROWSERS = (process.env.E2E_BROWSERS || 'chromium,firefox').split(',');

/** A fresh headless browser session for `name` ("chromium" or "firefox"). */
export async function launch(name, { width = 1280, height = 900 } = {}) {
  if (name === 'chromium') {
    const opts = new chrome.Options();
    opts.setChromeBinaryPath(which('chromium', 'CHROMIUM_PATH', ['/usr/bin/chromium']));
    const service = new chrome.ServiceBuilder(which('chromedriver', 'CHROMEDRIVER', ['/usr/bin/chromedriver']));
    // A fresh profile per session (about 5 MB), removed when the session quits or fails to start.
    const profile = mkdtempSync(join(tmpdir(), 'e2e-chromium-'));
    const removeProfile = () => rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
    opts.addArguments(
      '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
      '--disable-background-networking', '--disable-component-update', '--no-first-run',
      '--disable-sync', '--disable-quic', `--window-size=${width},${height}`,
      `--user-data-dir=${profile}`,
    );
    opts.setLoggingPrefs({ browser: 'ALL' });
    let driver;
    try {
      driver = await new Builder().forBrowser(Browser.CHROME).setChromeOptions(opts).setChromeService(service).build();
    } catch (e) {
      removeProfile();
      throw e;
    }
    const quit = driver.quit.bind(driver);
    driver.quit = async () => {
      try {
        return await quit();
      } finally {
        removeProfile();
      }
    };
    return driver;
  }
  if (name === 'firefox') {
    const opts = new firefox.Options();
    opts.setBinary(which('firefox-esr', 'FIREFOX_PATH', ['/usr/bin/firefox-esr', '/usr/bin/firefox']));
    opts.addArguments('-headless', `--width=${width}`, `--height=${height}`);
    opts.setPreference('app.update.enabled', false);
    opts.setPreference('network.captive-portal-service.enabled', false);
    opts.setPreference('browser.shell.checkDefaultBrowser', false);
    const service = new firefox.ServiceBuilder(
      which('geckodriver', 'GECKODRIVER', [join(homedir(), '.cargo/bin/geckodriver')]),
    );
    const driver = await new Builder().forBrowser(Browser.FIREFOX).setFirefoxOptions(opts).setFirefoxService(service).build();
    await driver.manage().window().setRect({ width, height });
    return driver;
  }
  throw new Error(`unknown browser ${name}`);
}
