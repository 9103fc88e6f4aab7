/**
 * The mails' HTML on a phone: rendered by Chromium at 390 px, nothing pans sideways — a one-word title of 200
 * characters, a long unbroken message and a long signing link all wrap inside the card.
 */
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInvitationMail } from "./build-invitation-mail";

let browser: Browser;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe("mail HTML at 390 px", () => {
  it("wraps a one-word title, a long message and the link inside the card", async () => {
    const word = "Rahmenvertragsverlängerungsvereinbarung".repeat(5);
    const mail = buildInvitationMail({
      recipientName: "Tina",
      senderName: "Olivia Owner",
      packageTitle: word,
      message: "x".repeat(300),
      signUrl: `http://127.0.0.1:3000/sign/${"t".repeat(120)}`,
      expiresAt: null,
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    // No network: the HTML is set as the page's content (it loads nothing).
    await page.setContent(mail.html);
    const widths = await page.evaluate(() => {
      const card = document.querySelector("[role=article]")!;
      return { page: document.documentElement.scrollWidth, card: card.scrollWidth, cardBox: card.clientWidth };
    });
    await page.close();
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.card).toBeLessThanOrEqual(widths.cardBox);
  }, 30_000);
});
