import type { ReviewFile } from "./review-types.ts";

const LETTER = { added: "A", modified: "M", deleted: "D", renamed: "R" } as const;

/** The changed files with their +/− counts; each jumps to its diff below. */
export function FileList({ files }: { files: readonly ReviewFile[] }) {
  return (
    <nav aria-label="Changed files">
      <ul className="review-files">
        {files.map((file, index) => (
          <li key={`${file.oldPath ?? ""}→${file.path}`}>
            <a href={`#review-file-${index}`}>
              <span className={`review-letter review-status-${file.status}`} title={file.status}>
                {LETTER[file.status]}
              </span>
              <span className="sr-only">{file.status}</span>
              <code>{file.path}</code>
            </a>
            <span className="add">+{file.additions}</span>
            <span className="del">−{file.deletions}</span>
          </li>
        ))}
      </ul>
    </nav>
  );
}
