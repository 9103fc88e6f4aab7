/** zod with `.openapi()` metadata. Every API schema imports `z` from here so one schema both validates and documents. */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

export { z };
