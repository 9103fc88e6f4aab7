import { expect, test, type Page } from "@playwright/test";

/**
 * Fails each test of the file in which the page threw an uncaught error. Returns `watch`, for a page the test
 * opens itself (another context's).
 */
export function failOnPageErrors(): { watch(page: Page): void } {
  const errors: string[] = [];
  const watch = (page: Page) => page.on("pageerror", (err) => errors.push(err.stack ?? err.message));
  test.beforeEach(({ page }) => watch(page));
  test.afterEach(() => {
    expect(errors.splice(0)).toEqual([]);
  });
  return { watch };
}
