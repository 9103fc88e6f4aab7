/** What the documents capability answers, in one place so routes, tests and the OpenAPI text agree. */
export const DOCUMENT_MESSAGES = {
  tooLarge: (limit: number) => `The file is larger than the limit of ${limit} bytes (MAX_DOCUMENT_BYTES)`,
  onlyDocx: "Only DOCX documents can be converted",
  notUploaded: "The document has not been uploaded yet",
  notPdf: "The document is a DOCX; convert it to PDF first",
  changedDuringConversion: "The document changed while it was being converted; try again",
  convertedTooLarge: (limit: number) => `The converted PDF is larger than the limit of ${limit} bytes (MAX_DOCUMENT_BYTES)`,
  convertedUnusable: (why: string) => `The DOCX converter produced a PDF that cannot be used: ${why}`,
  uploadNotFound: "Upload URL not found",
  uploadUsed: "This upload URL was already used; add the document again for a new one",
  uploadExpired: "This upload URL has expired; add the document again for a new one",
  uploadLonger: (declared: number) => `The upload is longer than the declared fileSize of ${declared} bytes; nothing was kept`,
  uploadShorter: (declared: number, received: number) =>
    `The upload is ${received} bytes but fileSize declared ${declared}; nothing was kept, PUT the whole file again`,
  uploadOverLimit: (limit: number) => `The upload is larger than the limit of ${limit} bytes (MAX_DOCUMENT_BYTES); nothing was kept`,
  wrongKind: (found: "PDF" | "DOCX", declared: string) =>
    `The file is a ${found} document but ${declared} was declared; add the document again with the right contentType`,
} as const;

export const PDF_TYPE = "application/pdf";
export const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** An upload URL is valid this long (the spec's two hours). */
export const UPLOAD_URL_TTL_MS = 2 * 60 * 60 * 1000;
