/**
 * The typed API client: openapi-fetch over the types generated from Foliosign's OpenAPI document
 * (./generated/openapi.ts), plus thin helpers for the common flow — a package from a template, send it, a
 * signing URL for one recipient, download the sealed result. Every helper returns the `data` of the answer and
 * throws a FoliosignError carrying the API's error body (`{ error, details? }`) otherwise. `api` is the full
 * typed client for every other operation.
 */
import createClient, { defaultBodySerializer } from "openapi-fetch";
import type { components, paths } from "./generated/openapi";

type TSchemas = components["schemas"];

/** A file's bytes, as the upload URL takes them (the document's `format: binary` request bodies). */
export type TUploadBody = Blob | ArrayBuffer | Uint8Array;

function isBytes(body: unknown): body is TUploadBody {
  return body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

/**
 * openapi-fetch JSON-encodes every body by default, which would turn a file's bytes into `{"0":37,"1":80,…}`: bytes
 * go to fetch unchanged, everything else as the default serializer writes it.
 */
function serializeBody(body: unknown): unknown {
  return isBytes(body) ? body : defaultBodySerializer(body);
}

export type TFoliosignClientOptions = {
  /** The instance's address, e.g. `https://sign.example.com` (the API lives under `/api/v1`). */
  baseUrl: string;
  /** An API key (`fsk_…`). */
  apiKey: string;
  /** A fetch of your own (tests, proxies, timeouts). Default: the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
};

/** Any answer that is not a 2xx: the status and the API's error body as it was sent. */
export class FoliosignError extends Error {
  override readonly name = "FoliosignError";
  readonly status: number;
  /** The body's `error` (for a body that is not the API's error shape — a proxy's page — `HTTP <status>`). */
  readonly error: string;
  /** On a 422: messages keyed by dotted path (`recipients.0.email`, `pageSize`). */
  readonly details: TSchemas["Error"]["details"];
  /** `X-Request-Id`: names the request in the server's log. */
  readonly requestId: string | undefined;
  /** On a 429: seconds until the rate-limit window resets (`Retry-After`). */
  readonly retryAfterSeconds: number | undefined;

  constructor(response: Response, body: unknown) {
    const parsed = isErrorBody(body) ? body : undefined;
    const error = parsed?.error ?? `HTTP ${response.status}`;
    const fields = Object.entries(parsed?.details ?? {}).map(([path, messages]) => `${path}: ${messages.join("; ")}`);
    super(`${response.status} ${error}${fields.length > 0 ? ` (${fields.join(", ")})` : ""}`);
    this.status = response.status;
    this.error = error;
    this.details = parsed?.details;
    this.requestId = response.headers.get("x-request-id") ?? undefined;
    const retryAfter = response.headers.get("retry-after");
    this.retryAfterSeconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  }
}

function isErrorBody(body: unknown): body is TSchemas["Error"] {
  return typeof body === "object" && body !== null && typeof (body as { error?: unknown }).error === "string";
}

type TResult<T> = { data?: T; error?: unknown; response: Response };

/** The answer's `data`, or a FoliosignError. */
function dataOf<T>(result: TResult<{ data: T }>): T {
  if (result.response.ok && result.data !== undefined) return result.data.data;
  throw new FoliosignError(result.response, result.error);
}

/** The answer's bytes, or a FoliosignError. */
function bytesOf(result: TResult<unknown>): Uint8Array {
  if (result.response.ok && result.data instanceof ArrayBuffer) return new Uint8Array(result.data);
  throw new FoliosignError(result.response, result.error);
}

export function createFoliosignClient(options: TFoliosignClientOptions) {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { authorization: `Bearer ${options.apiKey}` },
    bodySerializer: serializeBody,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const packageId = (id: string) => ({ path: { packageId: id } });

  return {
    /** The typed openapi-fetch client: every operation of the document, answers as `{ data, error, response }`. */
    api,

    /** `POST /api/v1/packages/from-template`: a DRAFT (or, with `status: "sent"`, a sent package) from a template. */
    async createFromTemplate(body: TSchemas["CreatePackageFromTemplate"], opts: { idempotencyKey?: string } = {}) {
      const header = opts.idempotencyKey === undefined ? {} : { "Idempotency-Key": opts.idempotencyKey };
      return dataOf(await api.POST("/api/v1/packages/from-template", { params: { header }, body }));
    },

    /** `POST /api/v1/packages/{packageId}/send`: sends a DRAFT now, or at `sendAt`. */
    async send(id: string, body: TSchemas["SendPackage"] = {}, opts: { idempotencyKey?: string } = {}) {
      const header = opts.idempotencyKey === undefined ? {} : { "Idempotency-Key": opts.idempotencyKey };
      return dataOf(await api.POST("/api/v1/packages/{packageId}/send", { params: { ...packageId(id), header }, body }));
    },

    /**
     * `PUT {uploadUrl}`: a document's bytes to the `uploadUrl` that adding a document (to a package or a template)
     * answered; returns the document, now UPLOADED. Sent to this client's `baseUrl` (the URL's last segment is its
     * token, which is the credential: no API key is sent with it), with `contentType` as Content-Type — by default
     * a Blob's own type, else `application/octet-stream` (the server checks the bytes, not the header).
     */
    async upload(uploadUrl: string, bytes: TUploadBody, contentType?: string) {
      const token = /\/uploads\/([^/]+)$/.exec(new URL(uploadUrl).pathname)?.[1];
      // The URL is a credential: not repeated in the message.
      if (token === undefined) throw new TypeError("uploadUrl is not an upload URL (…/uploads/{token})");
      const type = contentType ?? (bytes instanceof Blob && bytes.type !== "" ? bytes.type : "application/octet-stream");
      return dataOf(
        await api.PUT("/uploads/{token}", {
          params: { path: { token: decodeURIComponent(token) } },
          body: bytes,
          headers: { "content-type": type, authorization: null },
        }),
      );
    },

    /** `POST /api/v1/packages/{packageId}/signing-url`: a signing link for one recipient session of a sent package. */
    async signingUrl(id: string, body: TSchemas["CreateSigningUrl"]) {
      return dataOf(await api.POST("/api/v1/packages/{packageId}/signing-url", { params: packageId(id), body }));
    },

    /** `GET /api/v1/packages/{packageId}`: the package with its recipient sessions, documents and sealing state. */
    async getPackage(id: string) {
      return dataOf(await api.GET("/api/v1/packages/{packageId}", { params: packageId(id) }));
    },

    /** `GET /api/v1/packages/{packageId}/download`: the sealed, merged PDF of a COMPLETED package (409 before). */
    async download(id: string) {
      return bytesOf(await api.GET("/api/v1/packages/{packageId}/download", { params: packageId(id), parseAs: "arrayBuffer" }));
    },

    /** `GET /api/v1/packages/{packageId}/download/zip`: every sealed document and the certificate, as a zip. */
    async downloadZip(id: string) {
      return bytesOf(await api.GET("/api/v1/packages/{packageId}/download/zip", { params: packageId(id), parseAs: "arrayBuffer" }));
    },
  };
}

export type TFoliosignClient = ReturnType<typeof createFoliosignClient>;
