// The reviewer's console driven in headless Chromium by playwright-core, as a person would use it.
// Started by ConsoleBrowserIT with one argument, a JSON file:
//   { "loginUrl": "...", "chromium": "/usr/bin/chromium", "screenshots": "DIR", "reviewer": "NAME",
//     "approve": "METRIC", "reject": "METRIC", "untouched": "METRIC",
//     "statuses": { "metric": "METRIC", "chosen": ["STATUS", ...] }, "retag": { "column": "COLUMN", "category": "CATEGORY" },
//     "team": { "url": "http://127.0.0.1:PORT/console/", "reviewerToken": "...", "analystToken": "..." } }
// It asserts nothing itself: each step records what the browser saw (status codes, headings, table cells, the
// pages' HTML) and the Java test asserts on the one JSON object printed on stdout. Steps are separate functions
// run in order, each adding its own key to that object, so later steps can be appended to STEPS.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const origin = new URL(config.loginUrl).origin;
// Where the pages are: the login URL without /login (the origin itself, or a prefix where the console is served
// beside other routes).
const base = config.loginUrl.slice(0, config.loginUrl.lastIndexOf('/login'));

// The flags this machine's Chromium needs: no sandbox as root, and no connection of its own to the closed network.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** What a page shows: status, address (without its query), heading, alerts, and its HTML for the Java side. */
async function seen(page, response) {
  const url = new URL(page.url());
  return {
    status: response ? response.status() : null,
    path: url.pathname,
    query: url.search,
    h1: (await page.locator('h1').first().textContent())?.trim() ?? '',
    alerts: await page.locator('[role=alert], [role=status]').allTextContents(),
    html: await page.content(),
  };
}

async function screenshot(page, name) {
  await page.screenshot({ path: join(config.screenshots, name + '.png'), fullPage: true });
}

/** The rows of the first table matching `selector`, as arrays of cell texts. */
async function tableRows(page, selector = 'table') {
  return page.locator(selector).first().locator('tbody tr').evaluateAll(rows =>
    rows.map(r => Array.from(r.querySelectorAll('th, td')).map(td => td.textContent.trim())));
}

/** One draft's section: its assumptions as term -> values, its answer's rows, and its verdict buttons. */
async function draftSection(page, metric) {
  const section = page.locator('section.metric', { has: page.locator(`h2#m-${metric}`) });
  if (await section.count() === 0) {
    return null;
  }
  const assumptions = await section.locator('dl').first().evaluate(dl => {
    const out = {};
    let term = null;
    for (const el of dl.children) {
      if (el.tagName === 'DT') { term = el.textContent.trim(); out[term] = []; }
      else if (el.tagName === 'DD' && term) { out[term].push(el.textContent.trim()); }
    }
    return out;
  }).catch(() => ({}));
  return {
    plainWords: (await section.locator('h3:text-is("In plain words") + p').textContent().catch(() => '')) ?? '',
    assumptions,
    answerHeading: ((await section.locator('h3', { hasText: 'Its answer' }).first().textContent()) ?? '').trim(),
    columns: await section.locator('table thead th').allTextContents(),
    rows: await tableRows(section),
    chart: await section.locator('svg[role=img]').count(),
    sql: ((await section.locator('pre code').first().textContent().catch(() => '')) ?? '').trim(),
    buttons: (await section.locator('button').allTextContents()).map(t => t.trim()),
  };
}

// ---- steps: each takes the shared state and returns what it saw --------------------------------------------

/** Opens the printed URL: the token is exchanged for a cookie and the browser lands on the drafts page. */
async function signIn(s) {
  const response = await s.page.goto(config.loginUrl);
  const landed = await seen(s.page, response);
  const cookies = (await s.context.cookies(origin)).map(c => ({ name: c.name, httpOnly: c.httpOnly, sameSite: c.sameSite }));
  return { ...landed, cookies };
}

/** The drafts page: the draft to approve, shown with its assumptions, its 12-month answer and its SQL. */
async function drafts(s) {
  const response = await s.page.goto(base + '/');
  const page = await seen(s.page, response);
  const ids = await s.page.locator('section.metric h2[id^="m-"]').evaluateAll(hs => hs.map(h => h.id.replace(/^m-/, '')));
  await screenshot(s.page, 'drafts');
  return { ...page, drafts: ids, approve: await draftSection(s.page, config.approve), reject: await draftSection(s.page, config.reject) };
}

/** Clicks a draft's own button ("Approve NAME" / "Reject NAME") and records the answer page. */
async function verdict(s, verb, metric, shot) {
  await s.page.goto(base + '/');
  const [response] = await Promise.all([
    s.page.waitForNavigation(),
    s.page.getByRole('button', { name: `${verb} ${metric}`, exact: true }).click(),
  ]);
  const answer = await seen(s.page, response);
  await screenshot(s.page, shot);
  await s.page.goto(base + '/');
  return { ...answer, stillADraft: await s.page.locator(`h2#m-${metric}`).count() > 0 };
}

async function approve(s) {
  return verdict(s, 'Approve', config.approve, 'approved');
}

/** Rejects a draft, then reads the drafts page's Rejected list, where the metric is kept (and can be restored). */
async function reject(s) {
  const answer = await verdict(s, 'Reject', config.reject, 'rejected');
  const list = s.page.locator('section.metric', { has: s.page.locator('h2#rejected') });
  await list.scrollIntoViewIfNeeded();
  await list.screenshot({ path: join(config.screenshots, 'rejected-list.png') });
  return { ...answer, rejectedList: await tableRows(list),
    restoreButtons: (await list.locator('button').allTextContents()).map(t => t.trim()) };
}

/** The audit page, then filtered to the reviewer with its own form (a GET, as a person picks the caller). */
async function audit(s) {
  const response = await s.page.goto(base + '/audit');
  const all = await seen(s.page, response);
  await screenshot(s.page, 'audit');
  await s.page.selectOption('select#caller', config.reviewer);
  const [filtered] = await Promise.all([
    s.page.waitForNavigation(),
    s.page.getByRole('button', { name: 'Show' }).click(),
  ]);
  const mine = await seen(s.page, filtered);
  await screenshot(s.page, 'audit-reviewer');
  return {
    ...all,
    reviewerPage: { status: mine.status, query: mine.query, rows: await tableRows(s.page, 'table#calls') },
  };
}

/** The PII page: every tagged column with its evidence, and (checked in Java) no value of any of them. */
async function pii(s) {
  const response = await s.page.goto(base + '/pii');
  const page = await seen(s.page, response);
  await screenshot(s.page, 'pii');
  return { ...page, rows: await tableRows(s.page) };
}

/**
 * Another page on this machine (127.0.0.1 on another port: the same site, so the SameSite=Strict cookie is sent)
 * posts the approve form in the signed-in browser, without the form's token: refused, and the draft stays.
 */
async function crossSiteForm(s) {
  const form = `<form id="f" method="post" action="${base}/approve"><input name="metric" value="${config.untouched}">`
    + `<input name="csrf" value="guessed"></form><script>document.getElementById('f').submit()</script>`;
  const attacker = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(form));
  await new Promise(done => attacker.listen(0, '127.0.0.1', done));
  try {
    const [response] = await Promise.all([
      s.page.waitForResponse(r => r.url() === base + '/approve'),
      s.page.goto(`http://127.0.0.1:${attacker.address().port}/`),
    ]);
    await s.page.waitForURL(base + '/approve');
    const answer = await seen(s.page, response);
    await screenshot(s.page, 'cross-site-refused');
    await s.page.goto(base + '/');
    return { ...answer, stillADraft: await s.page.locator(`h2#m-${config.untouched}`).count() > 0 };
  } finally {
    attacker.close();
  }
}

/**
 * Changes a draft's statuses with its checkboxes (ticking exactly the ones chosen) and presses Preview: the answer now
 * and with the statuses chosen, side by side; nothing is saved yet.
 */
async function previewStatuses(s) {
  await s.page.goto(base + '/');
  const section = s.page.locator('section.metric', { has: s.page.locator(`h2#m-${config.statuses.metric}`) });
  await section.locator('details.edit > summary').click();   // the form is folded until asked for
  const boxes = section.locator('input[type=checkbox][name=status]');
  const before = await boxes.evaluateAll(bs => bs.filter(b => b.checked).map(b => b.value));
  const values = await boxes.evaluateAll(bs => bs.map(b => b.value));
  for (const v of values) {
    await section.locator(`input[type=checkbox][name=status][value="${v}"]`).setChecked(config.statuses.chosen.includes(v));
  }
  const [response] = await Promise.all([
    s.page.waitForNavigation(),
    section.getByRole('button', { name: 'Preview', exact: true }).click(),
  ]);
  const page = await seen(s.page, response);
  await screenshot(s.page, 'preview');
  return {
    ...page, values, before,
    columns: (await s.page.locator('table.compare thead th').allTextContents()).map(t => t.trim()),
    rows: await tableRows(s.page, 'table.compare'),
    chosen: await s.page.locator('input[type=checkbox][name=status]:checked').evaluateAll(bs => bs.map(b => b.value)),
  };
}

/** From the preview, "Approve NAME with this edit": the edited definition is confirmed under the reviewer. */
async function approveStatuses(s) {
  const [response] = await Promise.all([
    s.page.waitForNavigation(),
    s.page.getByRole('button', { name: `Approve ${config.statuses.metric} with this edit`, exact: true }).click(),
  ]);
  const answer = await seen(s.page, response);
  await screenshot(s.page, 'approved-statuses');
  await s.page.goto(base + '/');
  return { ...answer, stillADraft: await s.page.locator(`h2#m-${config.statuses.metric}`).count() > 0 };
}

/** Retags a PII column with its row's own select and button on /pii; the page answers with the column's new row. */
async function piiRetag(s) {
  await s.page.goto(base + '/pii');
  // The column's retag form: the one with a category to pick (whatever its relative action is called).
  const form = s.page.locator('form', { has: s.page.locator('select[name=category]') })
    .filter({ has: s.page.locator(`input[name=column][value="${config.retag.column}"]`) });
  await form.locator('select[name=category]').selectOption(config.retag.category);
  const [response] = await Promise.all([
    s.page.waitForNavigation(),
    form.getByRole('button', { name: `Retag ${config.retag.column}`, exact: true }).click(),
  ]);
  const page = await seen(s.page, response);
  await screenshot(s.page, 'pii-retagged');
  const row = (await tableRows(s.page)).find(r => r[0] === config.retag.column) ?? null;
  return { ...page, row };
}

/** The roles page: what each role of the access policy sees, as policy explain says it. */
async function roles(s) {
  const response = await s.page.goto(base + '/roles');
  const page = await seen(s.page, response);
  await screenshot(s.page, 'roles');
  return { ...page, roles: await s.page.locator('h2[id^=role-]').evaluateAll(hs => hs.map(h => h.textContent.trim())) };
}

/** A second browser with no cookie: every page is the sign-in page (401), and the spent token signs no one in. */
async function withoutToken(s) {
  const context = await s.browser.newContext();
  context.setDefaultTimeout(15000);
  try {
    const page = await context.newPage();
    const pages = {};
    for (const path of ['/', '/audit', '/pii']) {
      const r = await page.goto(base + path);
      pages[path] = { status: r.status(), h1: (await page.locator('h1').first().textContent()).trim(),
        tokenField: await page.locator('input[name=token]').count() };
    }
    await page.goto(base + '/');
    await screenshot(page, 'signin');
    const again = await page.goto(config.loginUrl);
    const spent = await seen(page, again);
    return { pages, spentToken: { status: spent.status, path: spent.path, alerts: spent.alerts,
      cookies: (await context.cookies(origin)).length } };
  } finally {
    await context.close();
  }
}

/**
 * A team's console (serve --console beside /mcp), in a browser of its own: the analyst's token gets 403 with its
 * sentence and no session; the lead's (a reviewer role) gets the drafts page under /console/.
 */
async function team(s) {
  const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15000);
  const teamOrigin = new URL(config.team.url).origin;
  try {
    const page = await context.newPage();
    const signInWith = async credential => {
      await page.goto(config.team.url);
      await page.locator('input[name=credential]').fill(credential);
      const [response] = await Promise.all([
        page.waitForNavigation(),
        page.locator('form', { has: page.locator('input[name=credential]') }).locator('button[type=submit]').click(),
      ]);
      return seen(page, response);
    };
    const analyst = await signInWith(config.team.analystToken);
    await screenshot(page, 'team-403');
    const analystCookies = (await context.cookies(teamOrigin)).length;
    const reviewer = await signInWith(config.team.reviewerToken);
    const drafts = await page.locator('section.metric h2[id^="m-"]').count();
    await screenshot(page, 'team-drafts');
    return { analyst: { ...analyst, cookies: analystCookies }, reviewer: { ...reviewer, drafts } };
  } finally {
    await context.close();
  }
}

// Later steps go here, in order; team stays last (the Java side waits for it before checking the screenshots).
const STEPS = { signIn, drafts, approve, reject, audit, pii, crossSiteForm, previewStatuses, approveStatuses, piiRetag, roles,
  withoutToken, team };

async function main() {
  const browser = await chromium.launch({ executablePath: config.chromium, headless: true, args: CHROMIUM_ARGS });
  const result = {};
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15000);   // a missing element fails the step in seconds, not Playwright's 30 s
    const page = await context.newPage();
    const state = { browser, context, page };
    for (const [name, step] of Object.entries(STEPS)) {
      try {
        result[name] = await step(state);
      } catch (e) {
        // One failed step ends the run; the Java test names it.
        result.failed = { step: name, message: String(e && e.message || e) };
        break;
      }
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

await main();
