// The certificate's time formats are defined once, in server/lib/zoned-time.ts.
export { formatTime, formatZonedTime } from "@/server/lib/zoned-time";
