import type {
  FakeCheckRun,
  FakePull,
  FakeRepo,
  FakeReview,
  FakeReviewComment,
  FakeStatus,
} from "./model.ts";

/** REST JSON for each fake object; `base` is the server's URL (html links stay loopback too). */
export function repoJson(base: string, repo: FakeRepo) {
  return {
    id: hashId(`${repo.owner}/${repo.name}`),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    owner: { login: repo.owner },
    default_branch: repo.defaultBranch,
    allow_merge_commit: repo.allowMergeCommit,
    allow_squash_merge: repo.allowSquashMerge,
    allow_rebase_merge: repo.allowRebaseMerge,
    html_url: `${base}/${repo.owner}/${repo.name}`,
  };
}

export function pullJson(base: string, repo: FakeRepo, pull: FakePull) {
  return {
    id: hashId(`${repo.owner}/${repo.name}#${pull.number}`),
    number: pull.number,
    title: pull.title,
    body: pull.body,
    state: pull.state,
    draft: pull.draft,
    merged: pull.merged,
    merge_commit_sha: pull.mergeCommitSha,
    html_url: `${base}/${repo.owner}/${repo.name}/pull/${pull.number}`,
    head: { ref: pull.head, sha: pull.headSha, label: `${repo.owner}:${pull.head}` },
    base: { ref: pull.base, label: `${repo.owner}:${pull.base}` },
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
  };
}

export function checkRunJson(run: FakeCheckRun) {
  return {
    id: run.id,
    head_sha: run.headSha,
    name: run.name,
    status: run.status,
    conclusion: run.conclusion,
    output: { ...run.output, annotations_count: 0 },
    details_url: run.detailsUrl,
  };
}

export function statusJson(status: FakeStatus) {
  return {
    id: status.id,
    context: status.context,
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    created_at: status.createdAt,
  };
}

export function reviewCommentJson(comment: FakeReviewComment) {
  return {
    id: comment.id,
    pull_request_review_id: null,
    path: comment.path,
    line: comment.line,
    side: comment.side,
    diff_hunk: comment.diffHunk,
    body: comment.body,
    user: { login: comment.user },
    commit_id: comment.commitId,
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
  };
}

export function reviewJson(review: FakeReview) {
  return {
    id: review.id,
    state: review.state,
    body: review.body,
    user: { login: review.user },
    commit_id: review.commitId,
    submitted_at: review.submittedAt,
  };
}

function hashId(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}
