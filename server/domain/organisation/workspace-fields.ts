/** The 409 message of a taken slug, shared by create and rename (the fields' schema is in ./schemas.ts). */
export const slugTaken = (slug: string) => `A workspace with the slug "${slug}" already exists`;
