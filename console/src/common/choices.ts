/** react-admin select choices from a contract word list: the stored word is both id and label. */
export const choicesOf = (words: readonly string[]) => words.map((id) => ({ id, name: id }));
