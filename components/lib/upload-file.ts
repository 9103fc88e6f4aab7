"use client";

import { ApiError, type TFieldErrors } from "./api-client";

/**
 * PUTs a file's raw bytes with XMLHttpRequest, because fetch() reports no upload progress. `onProgress` gets a
 * fraction 0..1 as bytes leave the browser. Resolves with `data`, rejects with an ApiError like apiFetch. The
 * library's upload and a template document's one-time upload URL both go through here.
 */
export function uploadFile<T>(
  url: string,
  file: File,
  onProgress: (fraction: number) => void,
  contentType = file.type || "application/octet-stream",
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    xhr.setRequestHeader("accept", "application/json");
    xhr.setRequestHeader("content-type", contentType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, "Could not reach the server. Check your connection and try again."));
    xhr.onabort = () => reject(new ApiError(0, "The upload was cancelled."));
    xhr.onload = () => {
      type TPayload = { data?: T; error?: string; details?: TFieldErrors };
      let payload: TPayload | null;
      try {
        payload = JSON.parse(xhr.responseText) as TPayload;
      } catch {
        payload = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(payload?.data as T);
      } else {
        reject(new ApiError(xhr.status, payload?.error ?? `Upload failed (${xhr.status})`, payload?.details ?? {}));
      }
    };
    xhr.send(file);
  });
}
