import { sessionRoute } from "@/server/auth/app-route";

// GET /api/app/me – the signed-in member as the app sees them
export const GET = sessionRoute({}, async ({ actor }) => actor);
