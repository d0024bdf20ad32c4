-- A banner's caption per language (issue 31 item 7, docs/decisions/295): `title` stays the English caption and
-- `titles` holds { "ja": ..., "ko": ..., "ru": ... }, the shape of templates.names (docs/decisions/069).
ALTER TABLE "banners" ADD COLUMN "titles" JSONB NOT NULL DEFAULT '{}';

-- The seeded banners as staff left them: their pictures had the English caption painted in, which the app now writes
-- over the picture in the visitor's language. They move to pictures without words (rendered at the next start) and
-- get their translations; a banner staff changed keeps its picture and text.
UPDATE "banners" SET "image_url" = 'site/banners/welcome-plain.jpg',
    "titles" = '{"ja": "写真を動画に変えよう", "ko": "사진을 영상으로 바꿔 보세요", "ru": "Превратите фото в видео"}'
  WHERE "image_url" = 'site/banners/welcome.jpg' AND "title" = 'Turn a photo into a video' AND "titles" = '{}';
UPDATE "banners" SET "image_url" = 'site/banners/templates-plain.jpg',
    "titles" = '{"ja": "新しいモーションテンプレート", "ko": "새로운 모션 템플릿", "ru": "Новые шаблоны движения"}'
  WHERE "image_url" = 'site/banners/templates.jpg' AND "title" = 'New motion templates' AND "titles" = '{}';
UPDATE "banners" SET "image_url" = 'site/banners/prices-plain.jpg',
    "titles" = '{"ja": "クレジットパックと料金", "ko": "크레딧 팩과 요금", "ru": "Пакеты кредитов и цены"}'
  WHERE "image_url" = 'site/banners/prices.jpg' AND "title" = 'Credit packs and prices' AND "titles" = '{}';
