import AssessmentIcon from "@mui/icons-material/Assessment";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import BadgeIcon from "@mui/icons-material/Badge";
import BlockIcon from "@mui/icons-material/Block";
import CampaignIcon from "@mui/icons-material/Campaign";
import CardMembershipIcon from "@mui/icons-material/CardMembership";
import CollectionsIcon from "@mui/icons-material/Collections";
import EventAvailableIcon from "@mui/icons-material/EventAvailable";
import FaceIcon from "@mui/icons-material/Face";
import FaceRetouchingOffIcon from "@mui/icons-material/FaceRetouchingOff";
import FlagIcon from "@mui/icons-material/Flag";
import ForumIcon from "@mui/icons-material/Forum";
import GavelIcon from "@mui/icons-material/Gavel";
import GavelOutlinedIcon from "@mui/icons-material/GavelOutlined";
import GppMaybeIcon from "@mui/icons-material/GppMaybe";
import HistoryIcon from "@mui/icons-material/History";
import HubIcon from "@mui/icons-material/Hub";
import ImageIcon from "@mui/icons-material/Image";
import InsightsIcon from "@mui/icons-material/Insights";
import LightbulbIcon from "@mui/icons-material/Lightbulb";
import LockIcon from "@mui/icons-material/Lock";
import MailIcon from "@mui/icons-material/Mail";
import MarkChatUnreadIcon from "@mui/icons-material/MarkChatUnread";
import MemoryIcon from "@mui/icons-material/Memory";
import ModelTrainingIcon from "@mui/icons-material/ModelTraining";
import MonitorHeartIcon from "@mui/icons-material/MonitorHeart";
import MovieIcon from "@mui/icons-material/Movie";
import PaymentsIcon from "@mui/icons-material/Payments";
import PeopleIcon from "@mui/icons-material/People";
import ReceiptIcon from "@mui/icons-material/Receipt";
import RedeemIcon from "@mui/icons-material/Redeem";
import SettingsIcon from "@mui/icons-material/Settings";
import StorefrontIcon from "@mui/icons-material/Storefront";
import SupportAgentIcon from "@mui/icons-material/SupportAgent";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import ViewQuiltIcon from "@mui/icons-material/ViewQuilt";
import VolunteerActivismIcon from "@mui/icons-material/VolunteerActivism";
import { type ComponentType, lazy } from "react";
import type { ResourceProps } from "react-admin";

type View = "list" | "show" | "edit" | "create";

/**
 * A resource's pages, loaded the first time one of them is shown: the sign-in page and the menu need only its name and
 * icon. `views` names every page the module exports, no more and no fewer (the type refuses both), since react-admin
 * must know before loading which routes and buttons a resource has.
 */
function pages<M extends Partial<Record<View, ComponentType>>>(
  load: () => Promise<M>,
  views: NoInfer<{ [K in keyof M & View]: true }>,
): Pick<ResourceProps, View> {
  return Object.fromEntries(Object.keys(views).map((view) => [view, lazy(() => load().then((m) => ({ default: m[view as View] as ComponentType })))]));
}

/** Every console resource in menu order (menu/groups.ts places them), with what the shell needs before its pages load. */
export const RESOURCES: ResourceProps[] = [
  {
    name: "users",
    icon: PeopleIcon,
    recordRepresentation: (r: { nickname?: string; email?: string; id: number }) => r.email ?? r.nickname ?? `#${r.id}`,
    ...pages(() => import("./users/index.tsx").then((m) => m.users), { list: true, show: true }),
  },
  { name: "support-threads", icon: SupportAgentIcon, ...pages(() => import("./support/index.tsx").then((m) => m.supportThreads), { list: true, show: true }) },
  {
    name: "orders",
    icon: ReceiptIcon,
    recordRepresentation: "orderNo",
    ...pages(() => import("./orders/index.tsx").then((m) => m.orders), { list: true, show: true }),
  },
  { name: "memberships", icon: AutorenewIcon, ...pages(() => import("./memberships/index.tsx").then((m) => m.memberships), { list: true, show: true }) },
  { name: "products", icon: StorefrontIcon, ...pages(() => import("./products/index.tsx").then((m) => m.products), { list: true, edit: true, create: true }) },
  {
    name: "templates",
    icon: ViewQuiltIcon,
    recordRepresentation: "name",
    ...pages(() => import("./templates/index.tsx").then((m) => m.templates), { list: true, edit: true, create: true }),
  },
  { name: "engines", icon: MemoryIcon, ...pages(() => import("./engines/index.tsx").then((m) => m.engines), { list: true }) },
  { name: "operations", icon: MonitorHeartIcon, ...pages(() => import("./operations/index.tsx").then((m) => m.operations), { list: true }) },
  {
    name: "channels",
    icon: CampaignIcon,
    recordRepresentation: "name",
    ...pages(() => import("./channels/index.tsx").then((m) => m.channels), { list: true, edit: true, create: true }),
  },
  { name: "reports", icon: FlagIcon, ...pages(() => import("./reports/index.tsx").then((m) => m.reports), { list: true, show: true }) },
  { name: "bans", icon: BlockIcon, ...pages(() => import("./bans/index.tsx").then((m) => m.bans), { list: true }) },
  { name: "appeals", icon: GavelIcon, ...pages(() => import("./appeals/index.tsx").then((m) => m.appeals), { list: true, show: true }) },
  { name: "transparency", icon: AssessmentIcon, ...pages(() => import("./transparency/index.tsx").then((m) => m.transparency), { list: true }) },
  { name: "evidence", icon: LockIcon, ...pages(() => import("./evidence/index.tsx").then((m) => m.evidence), { list: true, show: true }) },
  {
    name: "characters",
    icon: FaceIcon,
    recordRepresentation: "name",
    ...pages(() => import("./content/index.tsx").then((m) => m.characters), { list: true, show: true }),
  },
  {
    name: "creator-pages",
    icon: StorefrontIcon,
    recordRepresentation: "title",
    ...pages(() => import("./content/index.tsx").then((m) => m.creatorPages), { list: true, show: true }),
  },
  {
    name: "creator-memberships",
    icon: CardMembershipIcon,
    recordRepresentation: "id",
    ...pages(() => import("./creators/index.tsx").then((m) => m.creatorMemberships), { list: true, show: true }),
  },
  {
    name: "creator-library-items",
    icon: CollectionsIcon,
    recordRepresentation: "id",
    ...pages(() => import("./creators/index.tsx").then((m) => m.creatorLibraryItems), { list: true, show: true }),
  },
  {
    name: "payouts",
    icon: PaymentsIcon,
    recordRepresentation: "id",
    ...pages(() => import("./payouts/index.tsx").then((m) => m.payouts), { list: true, show: true }),
  },
  {
    name: "disputes",
    icon: GavelIcon,
    recordRepresentation: "id",
    ...pages(() => import("./payouts/index.tsx").then((m) => m.disputes), { list: true, show: true }),
  },
  {
    name: "tips",
    icon: VolunteerActivismIcon,
    recordRepresentation: "id",
    ...pages(() => import("./tips/index.tsx").then((m) => m.tips), { list: true, show: true }),
  },
  { name: "conversations", icon: ForumIcon, ...pages(() => import("./chat/index.tsx").then((m) => m.conversations), { list: true, show: true }) },
  { name: "chat-policy-hits", icon: GppMaybeIcon, ...pages(() => import("./chat/index.tsx").then((m) => m.chatPolicyHits), { list: true, show: true }) },
  { name: "chat-suspensions", icon: BlockIcon, ...pages(() => import("./chat/index.tsx").then((m) => m.chatSuspensions), { list: true, show: true }) },
  {
    name: "reported-threads",
    icon: MarkChatUnreadIcon,
    ...pages(() => import("./messages/index.tsx").then((m) => m.reportedThreads), { list: true, show: true }),
  },
  { name: "chat-backends", icon: HubIcon, ...pages(() => import("./chat/index.tsx").then((m) => m.chatBackends), { list: true }) },
  {
    name: "character-models",
    icon: ModelTrainingIcon,
    recordRepresentation: "name",
    ...pages(() => import("./character-models/index.tsx").then((m) => m.characterModels), { list: true, show: true }),
  },
  {
    name: "upload-screenings",
    icon: FaceRetouchingOffIcon,
    ...pages(() => import("./screening/index.tsx").then((m) => m.uploadScreenings), { list: true, show: true }),
  },
  {
    name: "blocked-hashes",
    icon: BlockIcon,
    ...pages(() => import("./screening/blocklist.tsx").then((m) => m.blockedHashes), { list: true, show: true, create: true }),
  },
  { name: "generation-tasks", icon: MovieIcon, ...pages(() => import("./tasks/index.tsx").then((m) => m.tasks), { list: true, show: true }) },
  { name: "banners", icon: ImageIcon, ...pages(() => import("./site/index.tsx").then((m) => m.banners), { list: true, edit: true, create: true }) },
  {
    name: "prompt-suggestions",
    icon: LightbulbIcon,
    ...pages(() => import("./site/index.tsx").then((m) => m.prompts), { list: true, edit: true, create: true }),
  },
  { name: "site-settings", icon: SettingsIcon, ...pages(() => import("./site/index.tsx").then((m) => m.settings), { list: true, edit: true, create: true }) },
  {
    name: "legal-versions",
    icon: GavelOutlinedIcon,
    ...pages(() => import("./legal/index.tsx").then((m) => m.legalVersions), { list: true, show: true, create: true }),
  },
  { name: "audit-log", icon: HistoryIcon, ...pages(() => import("./audit/index.tsx").then((m) => m.auditLog), { list: true, show: true }) },
  {
    name: "staff",
    icon: BadgeIcon,
    recordRepresentation: "username",
    ...pages(() => import("./staff/index.tsx").then((m) => m.staff), { list: true, create: true, edit: true }),
  },
  { name: "outbox", icon: MailIcon, ...pages(() => import("./outbox/index.tsx").then((m) => m.outbox), { list: true, show: true }) },
  { name: "pixel-ids", ...pages(() => import("./channels/index.tsx").then((m) => m.pixelIds), { edit: true, create: true }) },
  { name: "pixel-id-imports", icon: UploadFileIcon, ...pages(() => import("./imports/index.tsx").then((m) => m.pixelIdImports), { list: true }) },
  { name: "credit-grant-imports", icon: UploadFileIcon, ...pages(() => import("./imports/index.tsx").then((m) => m.creditGrantImports), { list: true }) },
  { name: "product-imports", icon: UploadFileIcon, ...pages(() => import("./imports/index.tsx").then((m) => m.productImports), { list: true }) },
  { name: "referrals", icon: RedeemIcon, ...pages(() => import("./rewards/index.tsx").then((m) => m.referrals), { list: true }) },
  { name: "check-ins", icon: EventAvailableIcon, ...pages(() => import("./rewards/index.tsx").then((m) => m.checkIns), { list: true }) },
  { name: "reward-days", icon: InsightsIcon, ...pages(() => import("./rewards/index.tsx").then((m) => m.rewardDays), { list: true }) },
  // referenced by other pages' fields (a user's ledger, an order's payment events); no pages of their own
  { name: "ledger" },
  { name: "payment-events" },
];
