import { appRoute } from "@/server/auth/app-route";
import { listMailForPackage } from "@/server/domain/mail/list-mail-for-package";
import { appListPackageMail } from "@/server/domain/mail/operations";

// GET /api/app/packages/{packageId}/mail – every message about the package, oldest first, with its delivery status
export const GET = appRoute(appListPackageMail, async ({ db, actor, params }) => ({ messages: await listMailForPackage(db, actor, params) }));
