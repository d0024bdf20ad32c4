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
      fields: { id: "ID", orderNo: "Order no.", userId: "User", productId: "Product", status: "Status", provider: "Provider", channelId: "Channel", finalPriceMinor: "Amount", currency: "Currency", credits: "Credits", createdAt: "Created", paidAt: "Paid", failureReason: "Failure", q: "Search order no.", createdAt_gte: "Created from", createdAt_lte: "Created until" },
    },
    "payment-events": { name: "Payment event |||| Payment events", fields: { id: "ID", provider: "Provider", eventId: "Event id", type: "Type", orderId: "Order", payload: "Payload", receivedAt: "Received" } },
    templates: {
      name: "Template |||| Templates",
      fields: { id: "ID", name: "Name", category: "Category", suitFor: "Suit for", mode: "Mode", engineParams: "Engine parameters (JSON)", creditPrice: "Credit price", coverUrl: "Cover image URL", coverSrc: "Cover", enabled: "Enabled", sortOrder: "Order", createdAt: "Created", q: "Search name" },
    },
    channels: {
      name: "Channel |||| Channels",
      fields: { id: "ID", code: "Code", name: "Name", facebook: "Facebook", tiktok: "TikTok", google: "Google", bigo: "Bigo", bemob: "BeMob", kspin: "KSpin", exoclick: "ExoClick", vk: "Vk", requiresPaymentPermission: "Payment needs permission", q: "Search" },
    },
    "pixel-ids": { name: "Pixel id |||| Pixel ids", fields: { id: "ID", channelId: "Channel", kind: "Kind", event: "Event", value: "Pixel id or domain" } },
    reports: {
      name: "Report |||| Reports",
      fields: { id: "ID", targetType: "Content", targetId: "Content id", targetUserId: "Owner", reporterUserId: "Reporter", reason: "Reason", details: "Details", status: "Status", ageSeconds: "Age", createdAt: "Filed", resolvedAt: "Resolved" },
    },
    characters: { name: "Character |||| Characters", fields: { id: "ID", name: "Name", userId: "Owner", state: "State", description: "Description", personality: "Personality", greeting: "Greeting", isPublic: "Public", createdAt: "Created", updatedAt: "Changed", q: "Search name" } },
    "creator-pages": { name: "Creator page |||| Creator pages", fields: { id: "ID", title: "Title", userId: "Owner", state: "State", homeLink: "Home link", bio: "Bio", socialLinks: "Social links", premiumOffer: "Premium offer", createdAt: "Created", updatedAt: "Changed", q: "Search title" } },
    "character-models": { name: "Character model |||| Character models", fields: { id: "ID", name: "Name", homeLink: "Home link", userId: "Owner", status: "Status", state: "State", minAge: "Youngest apparent age", error: "Error", trainer: "Trainer", weightsBytes: "Weights (bytes)", createdAt: "Submitted", finishedAt: "Finished", consent: "Consent record", q: "Search name or home link" } },
    bans: { name: "Ban |||| Bans", fields: { id: "ID", userId: "User", reason: "Reason", staffId: "By", createdAt: "Banned", liftedAt: "Lifted", liftedById: "Lifted by", active: "In force" } },
    "generation-tasks": {
      name: "Generation task |||| Generation tasks",
      fields: { id: "ID", userId: "User", mode: "Mode", templateId: "Template", engine: "Engine", status: "Status", progress: "Progress", cost: "Cost", input: "Inputs", outputs: "Outputs", outputKey: "Output", error: "Error", state: "Visibility", createdAt: "Created", finishedAt: "Finished" },
    },
    banners: { name: "Banner |||| Banners", fields: { id: "ID", title: "Title", imageUrl: "Image URL", link: "Link", enabled: "Enabled", sortOrder: "Order" } },
    "prompt-suggestions": { name: "Prompt suggestion |||| Prompt suggestions", fields: { id: "ID", text: "Text", category: "Category", enabled: "Enabled", sortOrder: "Order" } },
    "site-settings": { name: "Site setting |||| Site settings", fields: { id: "Key", key: "Key", value: "Value (JSON)", updatedAt: "Updated" } },
    "audit-log": { name: "Audit entry |||| Audit log", fields: { id: "ID", staffId: "Staff", action: "Action", resource: "Resource", resourceId: "Record", before: "Before", after: "After", reason: "Reason", createdAt: "When", createdAt_gte: "From", createdAt_lte: "Until" } },
    staff: { name: "Staff member |||| Staff", fields: { id: "ID", username: "Username", roles: "Roles", active: "Active", createdAt: "Created", role: "Role" } },
    outbox: { name: "Email |||| Email outbox", fields: { id: "ID", to: "To", subject: "Subject", body: "Body", createdAt: "Queued", sentAt: "Sent", error: "Error", q: "Search" } },
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
      ban_uploader: "Ban uploader", lift: "Lift ban", reset_password: "Reset password", submit: "Submit", moved_up: "Move up", upload_cover: "Upload cover image", enable: "Enable", disable: "Disable",
    },
    training: { approve: "Approve training", reject: "Reject", noConsent: "No consent record (expired or never taken)", decision: "Decision", minAge: "Youngest apparent age", selfie: "Live selfie", photos: "Training photos", match: "Match", age: "Age" },
    field: { reason: "Reason", delta: "Credits (+ to add, − to take)", password: "New password (shown once)", totpSecret: "One-time code secret (shown once)", otpauthUri: "Authenticator URI" },
    notify: { done: "Done", cover_uploaded: "Cover image saved", credentials: "Save these now: they are not shown again" },
    tab: { summary: "Summary", ledger: "Ledger", orders: "Orders", tasks: "Generations", reports: "Reports", events: "Payment events", pixels: "Pixel ids" },
    underage: "Underage",
  },
};
