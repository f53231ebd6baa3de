/** What went wrong with a button's or form's last call, announced to screen readers. */
export function ActionError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error}
    </p>
  );
}
