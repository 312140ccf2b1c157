/**
 * The group document schema: typed, pure functions over a group's Y.Doc, shared by the web client and tests.
 * Imported as `@quire/core/group`, apart from core's main entry, so pages without groups never load yjs.
 */
export {
  GROUP_ORIGIN,
  GROUP_SCHEMA_VERSION,
  ROOT,
  NOTE_PREFIX,
  COMMENTS_PREFIX,
  createGroupDoc,
  groupSchemaVersion,
  canWriteGroupDoc,
  initGroupDoc,
  type RootName,
} from './group-doc.ts';
export {
  joinGroup,
  updateMember,
  removeMember,
  getMember,
  listMembers,
  memberName,
  defaultMemberColour,
  type Member,
  type MemberInput,
} from './members.ts';
export {
  followTopic,
  unfollowTopic,
  listFollowedTopics,
  followedSlugs,
  isFollowing,
  type FollowedTopic,
} from './followed-topics.ts';
export {
  createCustomTopic,
  renameCustomTopic,
  addCustomTopicPhrase,
  removeCustomTopicPhrase,
  addCustomTopicExemplar,
  removeCustomTopicExemplar,
  deleteCustomTopic,
  getCustomTopic,
  listCustomTopics,
  customTopicIdOf,
  customTopicSlug,
  type CustomTopic,
  type CustomTopicInput,
} from './custom-topics.ts';
export { CUSTOM_PHRASE_WEIGHT, customTopicSpec, customTopicsTaxonomy } from './custom-topic-tagging.ts';
export {
  inboxFor,
  markLooked,
  lastLookedAt,
  saveFromInbox,
  dismissFromInbox,
  clearTriage,
  undoTriage,
  getTriage,
  listTriage,
  lastOwnTriage,
  inboxRows,
  inboxWindow,
  announcedAt,
  type InboxCandidate,
  type InboxItem,
  type InboxRow,
  type Triage,
  type TriageDecision,
  type UndoneTriage,
} from './inbox.ts';
export { NEW_MEMBER_LISTING_DAYS, type InboxWindow } from './inbox-window.ts';
export {
  snapshotOfPaper,
  checkSnapshot,
  type PaperSnapshot,
  type SnapshotSource,
  type SnapshotTag,
} from './paper-snapshot.ts';
export {
  QUEUE_STATUSES,
  saveToQueue,
  removeFromQueue,
  setQueueStatus,
  getQueueItem,
  isQueued,
  listQueue,
  type QueueItem,
  type QueueStatus,
} from './queue.ts';
export { sortQueue, type QueueOrder } from './queue-sort.ts';
export { recordLatestVersion, versionChangeOf, type VersionChange } from './version-change.ts';
export { noteName, noteText, noteMarkdown } from './notes.ts';
export {
  addComment,
  editComment,
  deleteComment,
  getComment,
  listComments,
  commentThreads,
  commentsOf,
  mentionRuns,
  mentionedIn,
  mentionsOf,
  mentionQueryAt,
  mentionCandidates,
  completeMention,
  type Comment,
  type Mention,
  type MentionRun,
  type MentionTarget,
  type CommentInput,
  type CommentNode,
} from './comments.ts';
export {
  DEFAULT_VOTES_PER_MEMBER,
  MAX_VOTES_PER_MEMBER,
  weekKeyOf,
  pickWeekAt,
  votesPerMember,
  setVotesPerMember,
  nominate,
  withdrawNomination,
  castVote,
  retractVote,
  votesOf,
  pickDeadline,
  ownPickDeadline,
  setPickDeadline,
  weekTally,
  compareCandidates,
  type Candidate,
  type ClosedPick,
  type WeekTally,
} from './weekly-pick.ts';
export {
  closeWeek,
  recordDeadlinePick,
  reopenWeek,
  markDiscussed,
  pickOf,
  pickHistory,
  type PickRecord,
} from './pick-history.ts';
export {
  weekPhase,
  pickStanding,
  inNominationOrder,
  type WeekPhase,
  type Standing,
  type TieBreak,
} from './pick-standing.ts';
export {
  DEFAULT_DEADLINE_LEAD_MINUTES,
  MAX_DEADLINE_LEAD_MINUTES,
  DEFAULT_MEETING_MINUTES,
  MAX_MEETING_MINUTES,
  meetingSchedule,
  setWeeklyMeeting,
  clearWeeklyMeeting,
  setMeetingTimeZone,
  addMeetingDate,
  cancelMeeting,
  restoreMeeting,
  setDeadlineLead,
  setMeetingLength,
  presenterRotation,
  setPresenterRotation,
  skipPresenter,
  unskipPresenter,
  meetingsBetween,
  nextMeeting,
  meetingOfWeek,
  meetingDeadline,
  recordPastPresenters,
  meetingChangedAt,
  isoWeekday,
  type Meeting,
  type MeetingSchedule,
  type WeeklySlot,
} from './meetings.ts';
export { checkTimeZone, instantOfWallTime, wallTimeAt, type WallTime } from './zoned-time.ts';
export { observeGroup, type GroupChange, type GroupPart } from './observe.ts';
export { exportBibtex, bibtexEntry, bibtexKeys, escapeBibtex, arxivDoi } from './export-bibtex.ts';
export {
  exportMarkdown,
  escapeMarkdown,
  demoteHeadings,
  type MarkdownExportOptions,
} from './export-markdown.ts';
export {
  exportCslJson,
  cslItems,
  cslItem,
  cslName,
  type CslItem,
  type CslName,
  type CslOptions,
} from './export-csl.ts';
