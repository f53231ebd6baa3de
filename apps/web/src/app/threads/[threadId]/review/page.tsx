import { Suspense } from "react";
import { ReviewView } from "../../../../components/review/review-view.tsx";

export default function ReviewPage() {
  // The view reads ?run= (a checkpoint's "open diff" link): search params need a boundary.
  return (
    <Suspense>
      <ReviewView />
    </Suspense>
  );
}
