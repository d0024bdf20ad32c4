/** The console's own texts in English; ru.ts is typed `typeof en`, so tsc refuses a missing or extra key. */
export const en = {
  resources: {
    users: {
      name: "User |||| Users",
      fields: {
        id: "ID", uuid: "UUID", nickname: "Nickname", email: "Email", loginType: "Login type", role: "Role", channelId: "Channel", paymentPermission: "Payment permission",
        points: "Balance", allPoints: "Credits ever granted", freeGenerations: "Free generations", bannedAt: "Banned at", createdAt: "Signed up", q: "Search email, uuid, nickname", banned: "Banned", language: "Language",
      },
    },
    ledger: { name: "Ledger entry |||| Ledger", fields: { id: "ID", userId: "User", delta: "Change", balanceAfter: "Balance after", reason: "Reason", reference: "Reference", staffId: "Staff", note: "Note", createdAt: "When" } },
    orders: {
      name: "Order |||| Orders",
      fields: { id: "ID", orderNo: "Order no.", userId: "User", productId: "Product", status: "Status", provider: "Provider", channelId: "Channel", finalPriceMinor: "Amount", currency: "Currency", credits: "Credits", bonusCredits: "Bonus credits", receivedAmount: "Received", receivedCurrency: "Received in", createdAt: "Created", paidAt: "Paid", failureReason: "Failure", q: "Search order no.", createdAt_gte: "Created from", createdAt_lte: "Created until" },
    },
    memberships: { name: "Membership |||| Memberships", fields: { id: "ID", userId: "User", orderId: "First order", status: "Status", provider: "Provider", providerRef: "Provider subscription", creditsPerPeriod: "Credits per period", periodsPaid: "Periods paid", currentPeriodEnd: "Paid until", cancelAtPeriodEnd: "Cancels at period end", endedAt: "Ended", createdAt: "Started" } },
    "payment-events": { name: "Payment event |||| Payment events", fields: { id: "ID", provider: "Provider", eventId: "Event id", type: "Type", orderId: "Order", payload: "Payload", receivedAt: "Received" } },
    templates: {
      name: "Template |||| Templates",
      fields: { id: "ID", name: "Name", category: "Category", suitFor: "Suit for", mode: "Mode", engineParams: "Engine parameters (JSON)", creditPrice: "Credit price", engine: "Engine (empty: the default)", workflow: "Workflow (GPU engines; empty: the engine's choice)", coverUrl: "Cover image URL", coverSrc: "Cover", enabled: "Enabled", sortOrder: "Order", createdAt: "Created", q: "Search name", names: { ja: "Name in Japanese", ko: "Name in Korean", ru: "Name in Russian" } },
    },
    channels: {
      name: "Channel |||| Channels",
      fields: { id: "ID", code: "Code", name: "Name", facebook: "Facebook", tiktok: "TikTok", google: "Google", bigo: "Bigo", bemob: "BeMob", kspin: "KSpin", exoclick: "ExoClick", vk: "Vk", requiresPaymentPermission: "Payment needs permission", q: "Search",
        serverConversions: {
          meta: { pixelId: "Meta pixel id", accessToken: "Meta Conversions API access token", testEventCode: "Meta test event code" },
          tiktok: { pixelCode: "TikTok pixel code", accessToken: "TikTok Events API access token", testEventCode: "TikTok test event code" },
          google_ads: { customerId: "Google Ads customer id", conversionActionId: "Conversion action id", developerToken: "Developer token", clientId: "OAuth client id", clientSecret: "OAuth client secret", refreshToken: "OAuth refresh token", loginCustomerId: "Manager (login) customer id" },
        },
      },
    },
    "pixel-ids": { name: "Pixel id |||| Pixel ids", fields: { id: "ID", channelId: "Channel", kind: "Kind", event: "Event", value: "Pixel id or domain" } },
    reports: {
      name: "Report |||| Reports",
      fields: { id: "ID", targetType: "Content", targetId: "Content id", targetUserId: "Owner", reporterUserId: "Reporter", reason: "Reason", details: "Details", status: "Status", ageSeconds: "Age", createdAt: "Filed", resolvedAt: "Resolved", source: "Source", breached: "48-hour clock", preview: "Reported media", reportedUrl: "Reported link", contactName: "Notifier", contactEmail: "Notifier email", swornAt: "Sworn statement" },
    },
    characters: { name: "Character |||| Characters", fields: { id: "ID", name: "Name", userId: "Owner", state: "State", description: "Description", personality: "Personality", greeting: "Greeting", isPublic: "Public", createdAt: "Created", updatedAt: "Changed", q: "Search name" } },
    conversations: { name: "Conversation |||| Conversations", fields: { id: "ID", userId: "User", characterId: "Character", state: "State", summary: "Running summary", lastMessageAt: "Last message", deletedAt: "Deleted by owner", createdAt: "Started", lines: "Lines" } },
    "chat-policy-hits": { name: "Chat policy hit |||| Chat policy hits", fields: { id: "ID", userId: "User", source: "Found in", rule: "Rule", conversationId: "Conversation", characterId: "Character", excerpt: "Excerpt", createdAt: "When" } },
    "chat-backends": { name: "Chat back end |||| Chat back ends", fields: { name: "Name", model: "Model", tiers: "Tiers", requests: "Requests (24 h)", errors: "Errors", prompt_tokens: "Prompt tokens", completion_tokens: "Reply tokens", p50_first_token_ms: "First token p50 (ms)", p95_first_token_ms: "First token p95 (ms)", avg_total_ms: "Average reply (ms)", last_error: "Last error" } },
    "creator-pages": { name: "Creator page |||| Creator pages", fields: { id: "ID", title: "Title", userId: "Owner", state: "State", homeLink: "Home link", bio: "Bio", socialLinks: "Social links", premiumOffer: "Premium offer", createdAt: "Created", updatedAt: "Changed", q: "Search title" } },
    "character-models": { name: "Character model |||| Character models", fields: { id: "ID", name: "Name", homeLink: "Home link", userId: "Owner", status: "Status", state: "State", minAge: "Youngest apparent age", error: "Error", trainer: "Trainer", weightsBytes: "Weights (bytes)", createdAt: "Submitted", finishedAt: "Finished", consent: "Consent record", q: "Search name or home link" } },
    bans: { name: "Ban |||| Bans", fields: { id: "ID", userId: "User", reason: "Reason", staffId: "By", createdAt: "Banned", liftedAt: "Lifted", liftedById: "Lifted by", active: "In force" } },
    "generation-tasks": {
      name: "Generation task |||| Generation tasks",
      fields: { id: "ID", userId: "User", mode: "Mode", templateId: "Template", engine: "Engine", status: "Status", progress: "Progress", cost: "Cost", input: "Inputs", outputs: "Outputs", outputKey: "Output", error: "Error", state: "Visibility", createdAt: "Created", finishedAt: "Finished" },
    },
    banners: { name: "Banner |||| Banners", fields: { id: "ID", title: "Title", imageUrl: "Image URL", link: "Link", enabled: "Enabled", sortOrder: "Order" } },
    "prompt-suggestions": { name: "Prompt suggestion |||| Prompt suggestions", fields: { id: "ID", text: "Text", category: "Category", enabled: "Enabled", sortOrder: "Order", texts: { ja: "Text in Japanese", ko: "Text in Korean", ru: "Text in Russian" } } },
    "site-settings": { name: "Site setting |||| Site settings", fields: { id: "Key", key: "Key", value: "Value (JSON)", updatedAt: "Updated" } },
    "audit-log": { name: "Audit entry |||| Audit log", fields: { id: "ID", staffId: "Staff", action: "Action", resource: "Resource", resourceId: "Record", before: "Before", after: "After", reason: "Reason", createdAt: "When", createdAt_gte: "From", createdAt_lte: "Until" } },
    staff: { name: "Staff member |||| Staff", fields: { id: "ID", username: "Username", roles: "Roles", active: "Active", createdAt: "Created", role: "Role" } },
    engines: { name: "Engine |||| Engines", fields: {} },
    outbox: { name: "Email |||| Email outbox", fields: { id: "ID", to: "To", subject: "Subject", body: "Body", createdAt: "Queued", sentAt: "Sent", error: "Error", q: "Search" } },
    appeals: {
      name: "Appeal |||| Appeals",
      fields: { id: "ID", decision: "Decision", person: "Person", explanation: "Reason given", targetType: "Content", targetId: "Content id", text: "Appeal", status: "Status", decisionReason: "Answer", decidedById: "Decided by", createdAt: "Filed", decidedAt: "Decided" },
    },
    transparency: { name: "Transparency |||| Transparency", fields: {} },
    evidence: { name: "Evidence |||| Evidence", fields: { id: "ID", targetType: "Content", targetId: "Content id", userId: "Owner", reportId: "Report", sizeBytes: "Bytes", createdAt: "Preserved", keepUntil: "Keep until", file: "File", sourceKey: "Original key", mime: "Type", sha256: "SHA-256", md5: "MD5" } },
  },
  console: {
    title: "Reverie console",
    login: { code: "One-time code", title: "Staff sign-in" },
    menu: { settings: "Site" },
    dashboard: {
      title: "Dashboard", days: "Last %{days} days", revenue: "Revenue per day by provider", orders: "Orders by status", generations: "Generations per day by status", modes: "Generations by mode",
      signups: "Sign-ups per day by login type", reports: "Open reports by age", empty: "No data in this period", total: "Total",
    },
    age: { under_1h: "< 1 hour", "1h_24h": "1–24 hours", "1d_7d": "1–7 days", over_7d: "> 7 days", minutes: "%{n} min", hours: "%{n} h", days: "%{n} d" },
    action: {
      ban: "Ban", unban: "Unban", grant_payment: "Grant payment permission", revoke_payment: "Revoke payment permission", adjust_credits: "Adjust credits", dismiss: "Dismiss", takedown: "Take content down",
      ban_uploader: "Ban uploader", lift: "Lift ban", reset_password: "Reset password", submit: "Submit", moved_up: "Move up", upload_cover: "Upload cover image", enable: "Enable", disable: "Disable", refund: "Refund",
    },
    training: { approve: "Approve training", reject: "Reject", noConsent: "No consent record (expired or never taken)", decision: "Decision", minAge: "Youngest apparent age", selfie: "Live selfie", photos: "Training photos", match: "Match", age: "Age" },
    field: { reason: "Reason", delta: "Credits (+ to add, − to take)", password: "New password (shown once)", totpSecret: "One-time code secret (shown once)", otpauthUri: "Authenticator URI" },
    notify: { done: "Done", cover_uploaded: "Cover image saved", credentials: "Save these now: they are not shown again" },
    tab: { summary: "Summary", ledger: "Ledger", orders: "Orders", tasks: "Generations", reports: "Reports", events: "Payment events", pixels: "Pixel ids", serverConversions: "Server-side purchase conversions (empty = off)" },
    refund: { credits: "The order granted %{n} credits", balance: "The user has %{n} credits now", spent: "Already spent (kept): %{n}", claw_back: "The refund takes back %{n} credits and returns the money through the provider" },
    chat: {
      role: { user: "Person", assistant: "Character" },
      notConfigured: "Chat is not available: no back end is configured. Set CHAT_BACKENDS to a JSON list of OpenAI-compatible servers, e.g. [{\"name\":\"gpu1\",\"baseUrl\":\"http://gpu1:8000/v1\",\"model\":\"your-model\",\"contextTokens\":8192}], and restart (README, settings).",
    },
    notices: {
      exportPackage: "CyberTipline package", evidenceTitle: "Evidence (restricted, admins only)",
      left: "%{hours} h left", met: "Answered", breached: "%{hours} h past the 48 h target", noPreview: "No file to preview",
      uphold: "Uphold decision", reverse: "Reverse and restore", sameModerator: "You made this decision: another moderator must decide the appeal.",
      automated: "Automated", byStaff: "By staff #%{id}", transparency: "Transparency", timeToAction: "Time to action", from: "From", to: "Until", csv: "Export CSV",
      resolved: "Reports resolved", median: "Median (hours)", p90: "90th percentile (hours)", breaches: "Past the %{hours} h target", openBreaching: "Still open past the target",
      section: {
        reports_by_reason: "Reports by reason", reports_by_source: "Reports by source", reports_by_outcome: "Reports by outcome", decisions_by_action: "Decisions by action",
        decisions_by_ground: "Decisions by ground", decisions_by_automation: "Automated or by staff", appeals_by_outcome: "Appeals by outcome",
      },
    },
    underage: "Underage",
    engines: {
      title: "Engines", default: "default", available: "Available", unavailable: "Unavailable", fix: "Fix", servers: "Servers", server: "Server", health: "Health", queue: "Queue",
      inFlight: "In flight", waiting: "Waiting", workflows: "Workflows offered", notOffered: "Not offered", lastErrors: "Last errors", none: "None", renders: "Render times, last 7 days",
      template: "Template", engine: "Engine", count: "Renders", avg: "Average", seconds: "%{n} s", tasks: "Tasks queued / running", noTemplate: "(no template)", all: "All workflows",
    },
  },
};
