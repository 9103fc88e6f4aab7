import { expect, type Page } from "@playwright/test";

/**
 * Screenshots committed under e2e/screenshots/ and looked at after every change to a page. Full page, except
 * while a modal dialog is open: its backdrop covers only the viewport, so a full-page capture misleads.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const modalOpen = (await page.locator("dialog[open]").count()) > 0;
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: !modalOpen, animations: "disabled" });
}

/**
 * `name` at the current (desktop) size, then `name-390` at a phone's 390 px, then back to the size it had.
 * At 390 px nothing may be wider than the screen (nothing pans sideways), checked once the pages have
 * re-measured themselves after the resize (a ResizeObserver). Back at the old size it waits until every frame
 * (an embedded signing page too) has laid itself out again, so the test's next click does not land on a spot
 * that is still moving.
 */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${name} at 390 px` }).toBeLessThanOrEqual(390);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(size);
  await settled(page);
}

/** Each frame's size, read after two animation frames: the same twice running means the layout has settled. */
async function layout(page: Page): Promise<string> {
  const sizes = await Promise.all(
    page.frames().map((frame) =>
      frame
        .evaluate(
          () =>
            new Promise<string>((resolve) =>
              requestAnimationFrame(() =>
                requestAnimationFrame(() => {
                  const root = document.documentElement;
                  resolve(`${innerWidth}x${innerHeight}:${root.scrollWidth}x${root.scrollHeight}`);
                }),
              ),
            ),
        )
        .catch(() => "gone"),
    ),
  );
  return sizes.join(" ");
}

async function settled(page: Page): Promise<void> {
  let last = "";
  await expect
    .poll(
      async () => {
        const now = await layout(page);
        const same = now === last;
        last = now;
        return same;
      },
      { message: "the page settles after the viewport is restored", intervals: [50] },
    )
    .toBe(true);
}
