import { NotFoundMessage } from "@/components/shell/not-found-message";
import { Card } from "@/components/ui/card";

/** notFound() in a signed-in page (an unknown endpoint id, say): the 404 inside the app shell. */
export default function AdminNotFound() {
  return (
    <Card className="mt-2">
      <NotFoundMessage signedIn />
    </Card>
  );
}
