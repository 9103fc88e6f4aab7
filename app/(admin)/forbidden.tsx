import { Forbidden } from "@/components/shell/forbidden";
import { Card } from "@/components/ui/card";

/** forbidden() in a signed-in page: the 403 message inside the app shell, so the navigation stays. */
export default function AdminForbidden() {
  return (
    <Card className="mt-2">
      <Forbidden />
    </Card>
  );
}
