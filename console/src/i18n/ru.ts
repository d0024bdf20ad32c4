import type { en } from "./en.ts";

export const ru: typeof en = {
  resources: {
    users: {
      name: "Пользователь |||| Пользователи",
      fields: {
        id: "ID", uuid: "UUID", nickname: "Ник", email: "Эл. почта", loginType: "Тип входа", role: "Роль", channelId: "Канал", paymentPermission: "Разрешение на оплату",
        points: "Баланс", allPoints: "Всего начислено", freeGenerations: "Бесплатные генерации", bannedAt: "Заблокирован", createdAt: "Регистрация", q: "Поиск: почта, uuid, ник", banned: "Заблокирован", language: "Язык",
      },
    },
    ledger: { name: "Запись журнала |||| Журнал кредитов", fields: { id: "ID", userId: "Пользователь", delta: "Изменение", balanceAfter: "Баланс после", reason: "Причина", reference: "Ссылка", staffId: "Сотрудник", note: "Примечание", createdAt: "Когда" } },
    orders: {
      name: "Заказ |||| Заказы",
      fields: { id: "ID", orderNo: "Номер заказа", userId: "Пользователь", productId: "Товар", status: "Статус", provider: "Платёжная система", channelId: "Канал", finalPriceMinor: "Сумма", currency: "Валюта", credits: "Кредиты", bonusCredits: "Бонусные кредиты", receivedAmount: "Получено", receivedCurrency: "Получено в", createdAt: "Создан", paidAt: "Оплачен", failureReason: "Ошибка", q: "Поиск по номеру", createdAt_gte: "Создан с", createdAt_lte: "Создан по" },
    },
    memberships: { name: "Подписка |||| Подписки", fields: { id: "ID", userId: "Пользователь", orderId: "Первый заказ", status: "Статус", provider: "Платёжная система", providerRef: "Подписка у платёжной системы", creditsPerPeriod: "Кредитов за период", periodsPaid: "Оплачено периодов", currentPeriodEnd: "Оплачено до", cancelAtPeriodEnd: "Отменится в конце периода", endedAt: "Завершена", createdAt: "Начата" } },
    "payment-events": { name: "Платёжное событие |||| Платёжные события", fields: { id: "ID", provider: "Платёжная система", eventId: "ID события", type: "Тип", orderId: "Заказ", payload: "Данные", receivedAt: "Получено" } },
    templates: {
      name: "Шаблон |||| Шаблоны",
      fields: { id: "ID", name: "Название", category: "Категория", suitFor: "Для", mode: "Режим", engineParams: "Параметры движка (JSON)", creditPrice: "Цена в кредитах", engine: "Движок (пусто: по умолчанию)", workflow: "Workflow (GPU-движки; пусто: выбор движка)", coverUrl: "URL обложки", coverSrc: "Обложка", enabled: "Включён", sortOrder: "Порядок", createdAt: "Создан", q: "Поиск по названию", names: { ja: "Название по-японски", ko: "Название по-корейски", ru: "Название по-русски" } },
    },
    channels: {
      name: "Канал |||| Каналы",
      fields: { id: "ID", code: "Код", name: "Название", facebook: "Facebook", tiktok: "TikTok", google: "Google", bigo: "Bigo", bemob: "BeMob", kspin: "KSpin", exoclick: "ExoClick", vk: "Vk", requiresPaymentPermission: "Оплата по разрешению", q: "Поиск",
        serverConversions: {
          meta: { pixelId: "ID пикселя Meta", accessToken: "Токен доступа Meta Conversions API", testEventCode: "Код тестового события Meta" },
          tiktok: { pixelCode: "Код пикселя TikTok", accessToken: "Токен доступа TikTok Events API", testEventCode: "Код тестового события TikTok" },
          google_ads: { customerId: "ID клиента Google Ads", conversionActionId: "ID действия-конверсии", developerToken: "Токен разработчика", clientId: "OAuth client id", clientSecret: "OAuth client secret", refreshToken: "OAuth refresh token", loginCustomerId: "ID управляющего аккаунта" },
        },
      },
    },
    "pixel-ids": { name: "ID пикселя |||| ID пикселей", fields: { id: "ID", channelId: "Канал", kind: "Вид", event: "Событие", value: "ID пикселя или домен" } },
    reports: {
      name: "Жалоба |||| Жалобы",
      fields: { id: "ID", targetType: "Контент", targetId: "ID контента", targetUserId: "Владелец", reporterUserId: "Автор жалобы", reason: "Причина", details: "Подробности", status: "Статус", ageSeconds: "Возраст", createdAt: "Подана", resolvedAt: "Решена", source: "Источник", breached: "Срок 48 часов", preview: "Медиа", reportedUrl: "Ссылка из жалобы", contactName: "Заявитель", contactEmail: "Email заявителя", swornAt: "Заявление под присягой" },
    },
    characters: { name: "Персонаж |||| Персонажи", fields: { id: "ID", name: "Имя", userId: "Владелец", state: "Состояние", description: "Описание", personality: "Характер", greeting: "Приветствие", isPublic: "Публичный", createdAt: "Создан", updatedAt: "Изменён", q: "Поиск по имени" } },
    conversations: { name: "Беседа |||| Беседы", fields: { id: "ID", userId: "Пользователь", characterId: "Персонаж", state: "Состояние", summary: "Сводка", lastMessageAt: "Последнее сообщение", deletedAt: "Удалена владельцем", createdAt: "Начата", lines: "Реплики" } },
    "chat-policy-hits": { name: "Нарушение в чате |||| Нарушения в чате", fields: { id: "ID", userId: "Пользователь", source: "Где найдено", rule: "Правило", conversationId: "Беседа", characterId: "Персонаж", excerpt: "Фрагмент", createdAt: "Когда" } },
    "chat-backends": { name: "Сервер чата |||| Серверы чата", fields: { name: "Имя", model: "Модель", tiers: "Уровни", requests: "Запросы (24 ч)", errors: "Ошибки", prompt_tokens: "Токены запроса", completion_tokens: "Токены ответа", p50_first_token_ms: "Первый токен p50 (мс)", p95_first_token_ms: "Первый токен p95 (мс)", avg_total_ms: "Средний ответ (мс)", last_error: "Последняя ошибка" } },
    "creator-pages": { name: "Страница автора |||| Страницы авторов", fields: { id: "ID", title: "Заголовок", userId: "Владелец", state: "Состояние", homeLink: "Ссылка", bio: "О себе", socialLinks: "Соцсети", premiumOffer: "Премиум-предложение", createdAt: "Создана", updatedAt: "Изменена", q: "Поиск по заголовку" } },
    "character-models": { name: "Модель персонажа |||| Модели персонажей", fields: { id: "ID", name: "Название", homeLink: "Ссылка", userId: "Владелец", status: "Статус", state: "Состояние", minAge: "Мин. видимый возраст", error: "Ошибка", trainer: "Сервис обучения", weightsBytes: "Веса (байт)", createdAt: "Отправлена", finishedAt: "Завершена", consent: "Запись согласия", q: "Поиск по названию или ссылке" } },
    bans: { name: "Блокировка |||| Блокировки", fields: { id: "ID", userId: "Пользователь", reason: "Причина", staffId: "Кем", createdAt: "Заблокирован", liftedAt: "Снята", liftedById: "Кем снята", active: "Действует" } },
    "generation-tasks": {
      name: "Задача генерации |||| Задачи генерации",
      fields: { id: "ID", userId: "Пользователь", mode: "Режим", templateId: "Шаблон", engine: "Движок", status: "Статус", progress: "Прогресс", cost: "Стоимость", input: "Входные данные", outputs: "Результаты", outputKey: "Результат", error: "Ошибка", state: "Видимость", createdAt: "Создана", finishedAt: "Завершена" },
    },
    banners: { name: "Баннер |||| Баннеры", fields: { id: "ID", title: "Заголовок", imageUrl: "URL изображения", link: "Ссылка", enabled: "Включён", sortOrder: "Порядок" } },
    "prompt-suggestions": { name: "Подсказка |||| Подсказки для запросов", fields: { id: "ID", text: "Текст", category: "Категория", enabled: "Включена", sortOrder: "Порядок", texts: { ja: "Текст по-японски", ko: "Текст по-корейски", ru: "Текст по-русски" } } },
    "site-settings": { name: "Настройка сайта |||| Настройки сайта", fields: { id: "Ключ", key: "Ключ", value: "Значение (JSON)", updatedAt: "Обновлено" } },
    "audit-log": { name: "Запись аудита |||| Журнал аудита", fields: { id: "ID", staffId: "Сотрудник", action: "Действие", resource: "Ресурс", resourceId: "Запись", before: "До", after: "После", reason: "Причина", createdAt: "Когда", createdAt_gte: "С", createdAt_lte: "По" } },
    staff: { name: "Сотрудник |||| Сотрудники", fields: { id: "ID", username: "Имя пользователя", roles: "Роли", active: "Активен", createdAt: "Создан", role: "Роль" } },
    engines: { name: "Движок |||| Движки", fields: {} },
    outbox: { name: "Письмо |||| Исходящие письма", fields: { id: "ID", to: "Кому", subject: "Тема", body: "Текст", createdAt: "В очереди", sentAt: "Отправлено", error: "Ошибка", q: "Поиск" } },
    appeals: {
      name: "Апелляция |||| Апелляции",
      fields: { id: "ID", decision: "Решение", person: "Пользователь", explanation: "Указанная причина", targetType: "Контент", targetId: "ID контента", text: "Апелляция", status: "Статус", decisionReason: "Ответ", decidedById: "Решил", createdAt: "Подана", decidedAt: "Решена" },
    },
    transparency: { name: "Прозрачность |||| Прозрачность", fields: {} },
    evidence: { name: "Доказательство |||| Доказательства", fields: { id: "ID", targetType: "Контент", targetId: "ID контента", userId: "Владелец", reportId: "Жалоба", sizeBytes: "Байт", createdAt: "Сохранено", keepUntil: "Хранить до", file: "Файл", sourceKey: "Исходный ключ", mime: "Тип", sha256: "SHA-256", md5: "MD5" } },
  },
  console: {
    title: "Консоль Reverie",
    login: { code: "Одноразовый код", title: "Вход для сотрудников" },
    menu: { settings: "Сайт" },
    dashboard: {
      title: "Сводка", days: "Последние %{days} дн.", revenue: "Выручка по дням и платёжным системам", orders: "Заказы по статусам", generations: "Генерации по дням и статусам", modes: "Генерации по режимам",
      signups: "Регистрации по дням и типу входа", reports: "Открытые жалобы по возрасту", empty: "Нет данных за период", total: "Итого",
    },
    age: { under_1h: "< 1 часа", "1h_24h": "1–24 часа", "1d_7d": "1–7 дней", over_7d: "> 7 дней", minutes: "%{n} мин", hours: "%{n} ч", days: "%{n} дн" },
    action: {
      ban: "Заблокировать", unban: "Разблокировать", grant_payment: "Разрешить оплату", revoke_payment: "Запретить оплату", adjust_credits: "Изменить кредиты", dismiss: "Отклонить", takedown: "Снять контент",
      ban_uploader: "Заблокировать автора", lift: "Снять блокировку", reset_password: "Сбросить пароль", submit: "Отправить", moved_up: "Выше", upload_cover: "Загрузить обложку", enable: "Включить", disable: "Выключить", refund: "Вернуть деньги",
    },
    training: { approve: "Одобрить обучение", reject: "Отклонить", noConsent: "Записи согласия нет (истекла или не создавалась)", decision: "Решение", minAge: "Мин. видимый возраст", selfie: "Живое селфи", photos: "Фото для обучения", match: "Сходство", age: "Возраст" },
    field: { reason: "Причина", delta: "Кредиты (+ начислить, − списать)", password: "Новый пароль (показывается один раз)", totpSecret: "Секрет одноразовых кодов (показывается один раз)", otpauthUri: "URI для приложения-аутентификатора" },
    notify: { done: "Готово", cover_uploaded: "Обложка сохранена", credentials: "Сохраните сейчас: больше они не будут показаны" },
    tab: { summary: "Сводка", ledger: "Журнал кредитов", orders: "Заказы", tasks: "Генерации", reports: "Жалобы", events: "Платёжные события", pixels: "ID пикселей", serverConversions: "Серверные конверсии покупок (пусто = выключено)" },
    refund: { credits: "Заказ начислил кредитов: %{n}", balance: "Сейчас у пользователя кредитов: %{n}", spent: "Уже потрачено (остаётся): %{n}", claw_back: "Возврат спишет кредитов: %{n} и вернёт деньги через платёжную систему" },
    chat: {
      role: { user: "Человек", assistant: "Персонаж" },
      notConfigured: "Чат недоступен: не настроен ни один сервер. Укажите в CHAT_BACKENDS JSON-список OpenAI-совместимых серверов, например [{\"name\":\"gpu1\",\"baseUrl\":\"http://gpu1:8000/v1\",\"model\":\"your-model\",\"contextTokens\":8192}], и перезапустите (README, настройки).",
    },
    notices: {
      exportPackage: "Пакет для CyberTipline", evidenceTitle: "Доказательства (закрыто, только администраторы)",
      left: "Осталось %{hours} ч", met: "Обработана", breached: "На %{hours} ч позже срока 48 ч", noPreview: "Нет файла для просмотра",
      uphold: "Оставить решение", reverse: "Отменить и восстановить", sameModerator: "Это ваше решение: апелляцию должен рассмотреть другой модератор.",
      automated: "Автоматически", byStaff: "Сотрудник #%{id}", transparency: "Прозрачность", timeToAction: "Время до решения", from: "С", to: "По", csv: "Экспорт CSV",
      resolved: "Решено жалоб", median: "Медиана (ч)", p90: "90-й перцентиль (ч)", breaches: "Позже срока %{hours} ч", openBreaching: "Открыты дольше срока",
      section: {
        reports_by_reason: "Жалобы по причинам", reports_by_source: "Жалобы по источникам", reports_by_outcome: "Жалобы по итогам", decisions_by_action: "Решения по действиям",
        decisions_by_ground: "Решения по основаниям", decisions_by_automation: "Автоматически или сотрудником", appeals_by_outcome: "Апелляции по итогам",
      },
    },
    underage: "Несовершеннолетние",
    engines: {
      title: "Движки", default: "по умолчанию", available: "Работает", unavailable: "Недоступен", fix: "Что сделать", servers: "Серверы", server: "Сервер", health: "Состояние", queue: "Очередь",
      inFlight: "В работе", waiting: "Ожидают", workflows: "Доступные workflow", notOffered: "Недоступны", lastErrors: "Последние ошибки", none: "Нет", renders: "Время рендера за 7 дней",
      template: "Шаблон", engine: "Движок", count: "Рендеров", avg: "В среднем", seconds: "%{n} с", tasks: "Задачи в очереди / в работе", noTemplate: "(без шаблона)", all: "Все workflow",
    },
  },
};
