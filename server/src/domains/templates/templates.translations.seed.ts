import type { Translations } from "../../contract/locales.ts";

/** The demo catalogue's template names in the app's other languages, by the seed's slug (staff edit them in the console). */
export const SEED_TEMPLATE_NAMES: Record<string, Translations> = {
  "soft-zoom": { ja: "ソフトズーム", ko: "소프트 줌", ru: "Мягкий зум" },
  "pull-back": { ja: "引きの構図", ko: "뒤로 물러나기", ru: "Отъезд камеры" },
  "dreamy-fade": { ja: "夢のようなフェード", ko: "몽환적인 페이드", ru: "Мечтательное затухание" },
  "gentle-sway": { ja: "やさしい揺れ", ko: "부드러운 흔들림", ru: "Лёгкое покачивание" },
  "city-pan": { ja: "街並みパン", ko: "도시 패닝", ru: "Панорама города" },
  "travel-glide": { ja: "旅のグライド", ko: "여행 글라이드", ru: "Плавный проезд" },
  "ken-burns": { ja: "ケン・バーンズ", ko: "켄 번즈", ru: "Эффект Кена Бёрнса" },
  "music-moment": { ja: "音楽の瞬間", ko: "음악의 순간", ru: "Музыкальный момент" },
  "depth-layers": { ja: "奥行きレイヤー", ko: "깊이 레이어", ru: "Слои глубины" },
  "floating-frame": { ja: "浮かぶフレーム", ko: "떠다니는 프레임", ru: "Парящая рамка" },
  "film-noir": { ja: "フィルム・ノワール", ko: "필름 누아르", ru: "Нуар" },
  "super-8": { ja: "スーパー8", ko: "슈퍼 8", ru: "Супер-8" },
  "pop-colour": { ja: "ポップカラー", ko: "팝 컬러", ru: "Яркие цвета" },
  "ice-tone": { ja: "アイストーン", ko: "아이스 톤", ru: "Холодный тон" },
  pencil: { ja: "鉛筆スケッチ", ko: "연필 스케치", ru: "Карандашный набросок" },
  "aurora-art": { ja: "オーロラアート", ko: "오로라 아트", ru: "Северное сияние" },
  "bokeh-lights": { ja: "ボケの光", ko: "보케 조명", ru: "Огни боке" },
};

/** The demo banners' captions in the app's other languages, by the seed's slug (the same texts as migration 0215). */
export const SEED_BANNER_TITLES: Record<string, Translations> = {
  welcome: { ja: "写真を動画に変えよう", ko: "사진을 영상으로 바꿔 보세요", ru: "Превратите фото в видео" },
  templates: { ja: "新しいモーションテンプレート", ko: "새로운 모션 템플릿", ru: "Новые шаблоны движения" },
  prices: { ja: "クレジットパックと料金", ko: "크레딧 팩과 요금", ru: "Пакеты кредитов и цены" },
};

/** The demo prompt suggestions in the app's other languages, by their English text. */
export const SEED_PROMPT_TEXTS: Record<string, Translations> = {
  "A neon-lit city street at night in the rain": {
    ja: "雨の夜、ネオンに照らされた街の通り",
    ko: "비 오는 밤, 네온 불빛이 비치는 도시의 거리",
    ru: "Ночная улица в неоновых огнях под дождём",
  },
  "Golden sunset over a calm ocean": { ja: "穏やかな海に沈む黄金の夕日", ko: "잔잔한 바다 위의 황금빛 노을", ru: "Золотой закат над спокойным океаном" },
  "A misty forest at dawn with soft light": {
    ja: "柔らかな光に包まれた夜明けの霧の森",
    ko: "부드러운 빛이 드는 새벽의 안개 낀 숲",
    ru: "Туманный лес на рассвете в мягком свете",
  },
  "A cosy café by the window on a rainy day": {
    ja: "雨の日、窓辺の居心地のよいカフェ",
    ko: "비 오는 날 창가의 아늑한 카페",
    ru: "Уютное кафе у окна в дождливый день",
  },
  "Cherry blossoms drifting in a spring garden": { ja: "春の庭に舞う桜の花びら", ko: "봄 정원에 흩날리는 벚꽃", ru: "Лепестки сакуры в весеннем саду" },
  "A starry galaxy above snowy mountains": {
    ja: "雪山の上に広がる星空の銀河",
    ko: "눈 덮인 산 위의 별이 가득한 은하",
    ru: "Звёздная галактика над снежными горами",
  },
  "Slow cinematic zoom on a smiling portrait": {
    ja: "笑顔のポートレートへのゆっくりとした映画的ズーム",
    ko: "미소 짓는 인물 사진을 향한 느린 영화 같은 줌",
    ru: "Медленный кинематографичный наезд на улыбающийся портрет",
  },
  "Dreamy travel memories with warm colours": {
    ja: "温かな色合いの夢のような旅の思い出",
    ko: "따뜻한 색감의 꿈같은 여행의 추억",
    ru: "Мечтательные воспоминания о путешествии в тёплых тонах",
  },
};
