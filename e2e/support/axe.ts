import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * axe-core on the page as it is: no violation of any impact, or (`serious`) none serious or critical. Each
 * violation is listed with the nodes it found.
 */
export async function expectAxeClean(page: Page, where: string, only: "all" | "serious" = "all"): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const found = result.violations.filter((v) => only === "all" || v.impact === "serious" || v.impact === "critical");
  expect(
    found.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`),
    `axe on ${where}`,
  ).toEqual([]);
}
