import Avatar from "@mui/material/Avatar";
import type { Character } from "./chat.api.ts";

/** A character's avatar: the uploaded image, else its initial on a colour picked from its id. */
export function CharacterAvatar({ character, size = 40 }: { character: Pick<Character, "id" | "name" | "avatar_url">; size?: number }) {
  const hue = (character.id * 67) % 360;
  return (
    <Avatar
      src={character.avatar_url ?? undefined}
      alt={character.name}
      sx={{ width: size, height: size, bgcolor: `hsl(${hue} 55% 45%)`, fontSize: size * 0.45 }}
    >
      {character.name.slice(0, 1).toUpperCase()}
    </Avatar>
  );
}
