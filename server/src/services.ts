import { createConsoleServices } from "./console-services.ts";
import type { Tx } from "./db/client.ts";
import type { Order } from "./db/generated/client.ts";
import { createAuthService } from "./domains/auth/auth.service.ts";
import { createMailer } from "./domains/auth/mailer.ts";
import { createMembershipsService } from "./domains/memberships/memberships.service.ts";
import { createOrdersService } from "./domains/orders/orders.service.ts";
import { createOrderReceipts } from "./domains/orders/orders.receipts.ts";
import { createPaymentsService } from "./domains/payments/payments.service.ts";
import { createNowpaymentsProvider } from "./domains/payments/providers/nowpayments.provider.ts";
import { createJpayProvider } from "./domains/payments/providers/jpay.provider.ts";
import { createWalletsService } from "./domains/wallets/wallets.service.ts";
import { createTonChain } from "./domains/wallets/ton-chain.ts";
import { createPagsmileProvider } from "./domains/payments/providers/pagsmile.provider.ts";
import { createPaypalProvider } from "./domains/payments/providers/paypal.provider.ts";
import { createSandboxProvider } from "./domains/payments/providers/sandbox.provider.ts";
import { createStripeProvider } from "./domains/payments/providers/stripe.provider.ts";
import { createProductsService } from "./domains/products/products.service.ts";
import { createStaffService } from "./domains/staff/staff.service.ts";
import { createUsersService } from "./domains/users/users.service.ts";
import { createModerationService } from "./domains/moderation/moderation.service.ts";
import { bannedOwner, flagEvasion } from "./domains/moderation/moderation.bans.ts";
import { createSystemReports } from "./domains/moderation/moderation.system-reports.ts";
import { createSupportService } from "./domains/support/support.service.ts";
import { createLegalService } from "./domains/legal/legal.service.ts";
import { createEvidenceService } from "./domains/moderation/evidence.ts";
import { createChatService } from "./domains/chat/chat.service.ts";
import { avatarImages, characterMedia } from "./domains/chat/chat-generation.ts";
import { createCreatorsService } from "./domains/creators/creators.service.ts";
import { withPageDetached, withPublishedCreations } from "./domains/creators/creators.moderated.ts";
import { createPayoutsService } from "./domains/creators/payouts.service.ts";
import { wireMessages } from "./domains/messages/messages.wiring.ts";
import { localMediaSigner } from "./storage/local.storage.ts";
import { mediaUrlSecret } from "./storage/storage.ts";
import { createChannelSecrets } from "./domains/pixels/channel-secrets.ts";
import { createConversionsService } from "./domains/pixels/conversions.service.ts";
import { createGeoLookup } from "./domains/site/geoip.ts";
import { createCityRedirects } from "./domains/site/redirect-by-city.ts";
import { createSiteService } from "./domains/site/site.service.ts";
import { createSandboxGateway } from "./domains/payments/sandbox/sandbox-gateway.ts";
import { createSandboxSubscriptions } from "./domains/payments/sandbox/sandbox-subscriptions.ts";
import { createPrivacyService } from "./domains/privacy/privacy.service.ts";
import { createRenderServices, type AppDeps } from "./render-services.ts";
import { measureOperations } from "./operations.ts";
import { createRewardsService } from "./domains/rewards/rewards.service.ts";
import { storedRewards } from "./domains/site/site.rewards.ts";
import { createNotificationDigests } from "./domains/notifications/notifications.digest.ts";

/** Every service of the API process, wired once; the generation worker builds only createRenderServices. */
export function createServices(deps: AppDeps) {
  const { db, config, log } = deps;
  const render = createRenderServices(deps);
  const { limiter, audit, credits, storage } = render;
  const mailer = createMailer(db, {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    log,
    printToLog: config.NODE_ENV === "development",
    // site is made further down; emails are sent only once everything is wired
    brand: () => site.emailBrand(),
  });
  const users = createUsersService(db, {
    ownImageKey: async (userId, uploadId) => (await render.uploads.own(userId, uploadId, "image")).storageKey,
    signedUrl: (key) => storage.signedUrl(key),
  });
  const products = createProductsService(db);
  const memberships = createMembershipsService({ db, credits, log });
  const channelSecrets = createChannelSecrets(db, audit, config.SECRETS_KEY);
  const conversions = createConversionsService({ db, config, log, secrets: channelSecrets });
  const rewards = createRewardsService({ db, credits, audit, settings: storedRewards, timeZoneOf: users.timeZoneOf });
  // the purchase conversion's outbox row and a first payment's referral gifts, in the transaction that marks it paid
  const onPaid = async (tx: Tx, order: Order) => {
    await conversions.recordPurchase(tx, order);
    await rewards.firstPaid(tx, order);
  };
  const orders = createOrdersService({ db, config, credits, products, memberships, log, audit, onPaid });
  const receipts = createOrderReceipts({ readable: orders.readable, contactOf: users.contactOf, sendMail: (mail) => mailer.send(mail), limiter });
  // chat files its automatic reports through moderation, which is built after chat (it changes chat's content through chat)
  const systemReports = createSystemReports();
  const chat = createChatService({
    db,
    config,
    log,
    credits,
    storage,
    uploads: render.uploads,
    images: avatarImages(render.generation, render.uploads),
    media: characterMedia(render.generation, render.progress),
    models: render.training,
    audit,
    databaseUrl: deps.databaseUrl ?? config.DATABASE_URL,
    metrics: render.metrics.chat,
    fileReport: systemReports.file,
  });
  // creator pages take their link, name and cover from training's finished models and their library's files from generation
  const creators = createCreatorsService({
    db,
    models: render.training,
    covers: { own: (userId, uploadId) => render.uploads.own(userId, uploadId, "image"), pictureOf: render.uploads.pictureOf },
    creations: (userId, ids) => render.generation.finishedMedia(userId, ids),
    storage,
    signer: localMediaSigner(mediaUrlSecret(config)),
    mediaTtlSeconds: config.MEDIA_URL_TTL_SECONDS,
    makeCreator: users.makeCreator,
    credits,
    keepCreation: render.generation.keepForPage,
    releaseCreation: render.generation.releaseFromPage,
    ownCreation: render.generation.own,
    requestHours: config.CREATOR_REQUEST_HOURS,
    minRatings: config.CREATOR_MIN_RATINGS,
    limits: {
      requests: { open: config.QUOTA_OPEN_REQUESTS, perHour: config.RATE_LIMIT_REQUESTS_PER_HOUR },
      library: { items: config.QUOTA_LIBRARY_ITEMS, perHour: config.RATE_LIMIT_LIBRARY_ITEMS_PER_HOUR },
    },
    // auth is built below (it moves creators' rows on a guest merge); a pass is checked only once a request is served
    sessionLive: (sessionId, userId) => auth.userSessionLive(sessionId, userId),
    checkText: chat.checkText,
    tipSettings: () => site.tips(),
    notify: render.notifications.record,
  });
  const payouts = createPayoutsService({ db, credits, audit, contactOf: users.contactOf, sendMail: (mail) => mailer.send(mail) });
  const support = createSupportService({ db, audit, orderOf: orders.readable, contactOf: users.contactOf, sendMail: (mail) => mailer.send(mail) });
  const messages = wireMessages(db, config, { credits, chat, creators, generation: render.generation, notify: render.notifications });
  const wallets = createWalletsService({ db, config, log, chain: createTonChain(config, log) });
  const auth = createAuthService({
    db,
    config,
    credits,
    mailer,
    limiter,
    log,
    guestRowOwners: [
      render.uploads.moveToUser,
      render.screening.moveToUser,
      render.generation.moveToUser,
      orders.moveToUser,
      memberships.moveToUser,
      chat.moveToUser,
      creators.moveToUser,
      wallets.moveToUser,
      support.moveToUser,
    ],
    bannedOwner,
    flagEvasion,
    accountStarted: (tx, userId, ctx) => rewards.invited(tx, userId, ctx.attribution.referralCode),
    databaseUrl: deps.databaseUrl ?? config.DATABASE_URL,
  });
  const sandboxGateway = createSandboxGateway({ db, config, log });
  const sandboxSubscriptions = createSandboxSubscriptions({ db, config, log, gateway: sandboxGateway });
  const providers = {
    sandbox: createSandboxProvider(config, sandboxGateway, sandboxSubscriptions),
    stripe: createStripeProvider(config, log),
    paypal: createPaypalProvider(config, log),
    pagsmile: createPagsmileProvider(config, log),
    usdt: createNowpaymentsProvider(config, log),
    jpay: createJpayProvider(config, log),
  };
  const legal = createLegalService(db, audit);
  const payments = createPaymentsService({
    config,
    log,
    orders,
    memberships,
    providers,
    termsInForce: legal.versionInForce,
    notifications: render.metrics.payments,
  });
  const site = createSiteService(db, storage);
  const evidence = createEvidenceService({
    db,
    audit,
    storage,
    retentionDays: config.EVIDENCE_RETENTION_DAYS,
    siteUrl: config.publicUrl,
    reporterEmail: config.MAIL_FROM,
  });
  const moderation = createModerationService({
    db,
    audit,
    revokeUserSessions: auth.revokeUserSessions,
    owned: {
      task: withPublishedCreations(render.generation.moderated, creators.isPublishedCreation),
      upload: render.uploads.moderated,
      character: chat.moderated.character,
      conversation: chat.moderated.conversation,
      creator_page: creators.moderated,
      message: messages.moderated,
    },
    cancelUserTasks: render.generation.cancelForAccount,
    endCreatorDealings: creators.accountBanned,
    blockTakenDown: render.blocklist.blockTakenDown,
    preserveEvidence: evidence.preserve,
    storage,
    sendMail: (mail) => mailer.send(mail),
    repeatOffenderTakedowns: config.REPEAT_OFFENDER_TAKEDOWNS,
  });
  systemReports.connect(moderation);
  // each domain erases its own tables (decision 262): those naming others' rows first, auth's users row last
  const privacy = createPrivacyService({
    db,
    log,
    storage,
    audit,
    boss: render.queue.ready,
    sendMail: (mail) => mailer.send(mail),
    contactOf: users.contactOf,
    productName: async () => (await site.brand()).name,
    sendDeletionCode: (email, ctx, mail) => auth.sendPurposeCode(email, "account_deletion", ctx, mail),
    confirmDeletionCode: (email, code) => auth.confirmEmailCode(email, "account_deletion", code),
    cancelPlan: payments.cancelMembership,
    evictModels: render.training.evictModelsOf,
    cancelTasks: (tx, userId) => render.generation.cancelForAccount(tx, userId, "account deleted"),
    owners: [
      messages.eraseUser,
      creators.eraseUser,
      chat.eraseUser,
      support.eraseUser,
      render.training.eraseUser,
      render.generation.eraseUser,
      render.screening.eraseUser,
      render.uploads.eraseUser,
      orders.eraseUser,
      wallets.eraseUser,
      auth.eraseUser,
    ],
    graceDays: config.ACCOUNT_DELETION_GRACE_DAYS,
    exportKeepHours: config.DATA_EXPORT_KEEP_HOURS,
    linkTtlSeconds: config.MEDIA_URL_TTL_SECONDS,
  });
  const consoleServices = createConsoleServices(deps, { render, channelSecrets, moderation, evidence, rewards, messages });
  measureOperations(render.metrics, { generation: render.generation, engines: render.engines, conversions });
  /** Releases the queue and LISTEN connections (the db itself belongs to the caller). */
  const close = (): Promise<void> => Promise.all([render.close(), chat.close(), auth.close()]).then(() => undefined);
  return {
    ...render,
    // a withdrawn model leaves the page that showed it: the page stays, without the model (issue 30)
    training: { ...render.training, revoke: withPageDetached(render.training.revoke, creators.detachModel) },
    mailer,
    auth,
    users,
    staff: createStaffService(db, audit),
    products,
    orders,
    receipts,
    memberships,
    conversions,
    sandboxGateway,
    sandboxSubscriptions,
    payments,
    wallets,
    site,
    cityRedirects: createCityRedirects(db, createGeoLookup(), log),
    ...consoleServices,
    chat,
    creators,
    messages,
    payouts,
    support,
    legal,
    privacy,
    rewards,
    notificationDigests: createNotificationDigests(deps, users.contactOf, mailer),
    close,
  };
}

export type Services = ReturnType<typeof createServices>;
