import { describe, expect, it } from "vitest";
import { pixelsToPoints, pointsToPixels, scaleFor } from "@/components/documents/geometry";
import { DEFAULT_FIELD_SIZE, MIN_FIELD_SIZE, clampRect, defaultRect, moveRect, rectAt, resizeRect, roleColour } from "./field-geometry";

const A4 = { width: 595, height: 842 };

describe("page scale", () => {
  it("maps points to pixels and back at the container's width", () => {
    const scale = scaleFor(A4, 390);
    expect(scale).toBeCloseTo(390 / 595);
    const px = pointsToPixels({ x: 100, y: 200, width: 160, height: 48 }, scale);
    expect(px.width).toBeCloseTo(160 * scale);
    expect(pixelsToPoints({ x: px.x, y: px.y }, scale)).toEqual({ x: expect.closeTo(100), y: expect.closeTo(200) });
  });

  it("has no scale before the container is measured", () => {
    expect(scaleFor(A4, 0)).toBe(0);
    expect(pixelsToPoints({ x: 10, y: 10 }, 0)).toEqual({ x: 0, y: 0 });
  });
});

describe("field rectangles stay inside their page", () => {
  it("moves a rectangle back inside and never below the minimum size", () => {
    expect(clampRect({ x: -20, y: 900, width: 100, height: 20 }, A4)).toEqual({ x: 0, y: 822, width: 100, height: 20 });
    expect(clampRect({ x: 10, y: 10, width: 1, height: 1 }, A4)).toMatchObject({ width: MIN_FIELD_SIZE, height: MIN_FIELD_SIZE });
    expect(clampRect({ x: 10, y: 10, width: 5000, height: 20 }, A4)).toMatchObject({ x: 0, width: 595 });
  });

  it("centres a dropped field on the pointer, pushed inside near an edge", () => {
    expect(rectAt("signature", { x: 300, y: 400 }, A4)).toEqual({ x: 220, y: 376, width: 160, height: 48 });
    expect(rectAt("signature", { x: 590, y: 5 }, A4)).toEqual({ x: 435, y: 0, width: 160, height: 48 });
  });

  it("puts keyboard-added fields in successive slots so they do not overlap", () => {
    const first = defaultRect("signature", A4, 0);
    const second = defaultRect("signature", A4, 1);
    expect(second.y).toBeGreaterThanOrEqual(first.y + DEFAULT_FIELD_SIZE.signature.height);
    expect(second.x).toBe(first.x);
  });

  it("moves by arrow steps and stops at the page edge", () => {
    const r = { x: 590 - 160, y: 10, width: 160, height: 48 };
    expect(moveRect(r, 2, 0, A4).x).toBe(432);
    expect(moveRect(r, 20, 0, A4).x).toBe(435);
  });

  it("resizes from the bottom-right corner within the page and above the minimum", () => {
    const r = { x: 500, y: 10, width: 60, height: 20 };
    expect(resizeRect(r, 100, 0, A4)).toEqual({ x: 500, y: 10, width: 95, height: 20 });
    expect(resizeRect(r, -100, -100, A4)).toEqual({ x: 500, y: 10, width: MIN_FIELD_SIZE, height: MIN_FIELD_SIZE });
  });
});

it("gives neighbouring roles different colours", () => {
  expect(roleColour(0)).not.toBe(roleColour(1));
  expect(roleColour(8)).toBe(roleColour(0));
});
