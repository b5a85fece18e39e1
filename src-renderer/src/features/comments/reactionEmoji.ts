// The emoji the reaction picker offers, with the names its search matches. Pure (tested under Node).

export interface ReactionEmoji {
  emoji: string
  name: string
  /** More words the search matches. */
  keywords?: string
}

/** The quick reactions, first in the picker (GitHub's set). */
export const QUICK_REACTIONS: readonly ReactionEmoji[] = [
  { emoji: '👍', name: 'thumbs up', keywords: '+1 yes agree like approve' },
  { emoji: '👎', name: 'thumbs down', keywords: '-1 no disagree dislike' },
  { emoji: '😄', name: 'laugh', keywords: 'smile happy grin funny' },
  { emoji: '🎉', name: 'hooray', keywords: 'tada party celebrate congratulations' },
  { emoji: '😕', name: 'confused', keywords: 'unsure puzzled hmm' },
  { emoji: '❤️', name: 'heart', keywords: 'love thanks red' },
  { emoji: '🚀', name: 'rocket', keywords: 'ship launch fast' },
  { emoji: '👀', name: 'eyes', keywords: 'looking watching review' }
]

/** Everything else the search finds; any other emoji can still be typed or pasted. */
export const MORE_REACTIONS: readonly ReactionEmoji[] = [
  { emoji: '😀', name: 'grinning face', keywords: 'happy smile' },
  { emoji: '😂', name: 'tears of joy', keywords: 'laugh lol funny' },
  { emoji: '🤣', name: 'rolling on the floor laughing', keywords: 'rofl lol funny' },
  { emoji: '🙂', name: 'slightly smiling face', keywords: 'smile ok' },
  { emoji: '😉', name: 'wink' },
  { emoji: '😊', name: 'smiling face with smiling eyes', keywords: 'blush happy' },
  { emoji: '😍', name: 'heart eyes', keywords: 'love' },
  { emoji: '🥰', name: 'smiling face with hearts', keywords: 'love' },
  { emoji: '😎', name: 'cool', keywords: 'sunglasses' },
  { emoji: '🤔', name: 'thinking', keywords: 'hmm consider question' },
  { emoji: '🧐', name: 'monocle', keywords: 'inspect review curious' },
  { emoji: '🤯', name: 'mind blown', keywords: 'exploding head wow' },
  { emoji: '😮', name: 'surprised', keywords: 'wow open mouth' },
  { emoji: '😲', name: 'astonished', keywords: 'wow shocked' },
  { emoji: '😬', name: 'grimace', keywords: 'awkward oops' },
  { emoji: '😅', name: 'sweat smile', keywords: 'relief phew' },
  { emoji: '🙃', name: 'upside down face', keywords: 'silly irony' },
  { emoji: '😐', name: 'neutral face', keywords: 'meh' },
  { emoji: '😑', name: 'expressionless' },
  { emoji: '🙄', name: 'eye roll', keywords: 'rolling eyes whatever' },
  { emoji: '😢', name: 'crying', keywords: 'sad tear' },
  { emoji: '😭', name: 'sobbing', keywords: 'sad cry' },
  { emoji: '😡', name: 'angry', keywords: 'mad rage' },
  { emoji: '😱', name: 'scream', keywords: 'fear shocked' },
  { emoji: '😴', name: 'sleeping', keywords: 'tired zzz boring' },
  { emoji: '🥳', name: 'partying face', keywords: 'party celebrate birthday' },
  { emoji: '🤩', name: 'star struck', keywords: 'excited wow' },
  { emoji: '😇', name: 'halo', keywords: 'angel innocent' },
  { emoji: '🤗', name: 'hug', keywords: 'hugging thanks' },
  { emoji: '🤝', name: 'handshake', keywords: 'deal agree' },
  { emoji: '🙏', name: 'folded hands', keywords: 'please thanks pray' },
  { emoji: '👏', name: 'clapping hands', keywords: 'applause bravo well done' },
  { emoji: '🙌', name: 'raising hands', keywords: 'hooray celebrate' },
  { emoji: '👋', name: 'waving hand', keywords: 'hello hi bye' },
  { emoji: '👌', name: 'ok hand', keywords: 'okay perfect' },
  { emoji: '✌️', name: 'victory hand', keywords: 'peace' },
  { emoji: '🤞', name: 'crossed fingers', keywords: 'luck hope' },
  { emoji: '💪', name: 'flexed biceps', keywords: 'strong strength' },
  { emoji: '👉', name: 'pointing right', keywords: 'this' },
  { emoji: '☝️', name: 'pointing up', keywords: 'this above' },
  { emoji: '✋', name: 'raised hand', keywords: 'stop wait' },
  { emoji: '🤷', name: 'shrug', keywords: 'dunno whatever' },
  { emoji: '🤦', name: 'facepalm', keywords: 'doh' },
  { emoji: '💯', name: 'hundred points', keywords: '100 perfect score' },
  { emoji: '🔥', name: 'fire', keywords: 'hot lit flame' },
  { emoji: '✨', name: 'sparkles', keywords: 'shiny new magic' },
  { emoji: '⭐', name: 'star', keywords: 'favourite favorite' },
  { emoji: '🌟', name: 'glowing star', keywords: 'shine' },
  { emoji: '💡', name: 'light bulb', keywords: 'idea' },
  { emoji: '✅', name: 'check mark', keywords: 'done yes ok tick' },
  { emoji: '✔️', name: 'check', keywords: 'done tick' },
  { emoji: '❌', name: 'cross mark', keywords: 'no wrong x' },
  { emoji: '⚠️', name: 'warning', keywords: 'caution alert' },
  { emoji: '❓', name: 'question mark', keywords: 'question' },
  { emoji: '❗', name: 'exclamation mark', keywords: 'important' },
  { emoji: '🛑', name: 'stop sign', keywords: 'halt block' },
  { emoji: '🚧', name: 'construction', keywords: 'wip work in progress' },
  { emoji: '🐛', name: 'bug', keywords: 'issue defect' },
  { emoji: '🔧', name: 'wrench', keywords: 'fix tool' },
  { emoji: '🛠️', name: 'hammer and wrench', keywords: 'tools build fix' },
  { emoji: '⚙️', name: 'gear', keywords: 'settings config' },
  { emoji: '📝', name: 'memo', keywords: 'note write edit' },
  { emoji: '📌', name: 'pushpin', keywords: 'pin' },
  { emoji: '📎', name: 'paperclip', keywords: 'attach' },
  { emoji: '🔗', name: 'link', keywords: 'chain url' },
  { emoji: '📚', name: 'books', keywords: 'docs documentation read' },
  { emoji: '📖', name: 'open book', keywords: 'read docs' },
  { emoji: '🔍', name: 'magnifying glass', keywords: 'search find look' },
  { emoji: '🔒', name: 'lock', keywords: 'secure private' },
  { emoji: '🔑', name: 'key', keywords: 'access password' },
  { emoji: '📣', name: 'megaphone', keywords: 'announce' },
  { emoji: '💬', name: 'speech balloon', keywords: 'comment talk' },
  { emoji: '💭', name: 'thought balloon', keywords: 'think' },
  { emoji: '🧠', name: 'brain', keywords: 'smart think' },
  { emoji: '⏰', name: 'alarm clock', keywords: 'time late' },
  { emoji: '⏳', name: 'hourglass', keywords: 'wait pending time' },
  { emoji: '📅', name: 'calendar', keywords: 'date schedule' },
  { emoji: '🏁', name: 'chequered flag', keywords: 'finish done' },
  { emoji: '🎯', name: 'direct hit', keywords: 'target bullseye goal' },
  { emoji: '🏆', name: 'trophy', keywords: 'win award' },
  { emoji: '🥇', name: 'first place medal', keywords: 'gold winner' },
  { emoji: '🎁', name: 'gift', keywords: 'present' },
  { emoji: '🎊', name: 'confetti ball', keywords: 'celebrate party' },
  { emoji: '🍾', name: 'champagne', keywords: 'celebrate bottle' },
  { emoji: '☕', name: 'coffee', keywords: 'break hot drink' },
  { emoji: '🍕', name: 'pizza', keywords: 'food' },
  { emoji: '🍰', name: 'cake', keywords: 'birthday' },
  { emoji: '🌈', name: 'rainbow' },
  { emoji: '☀️', name: 'sun', keywords: 'sunny bright' },
  { emoji: '⚡', name: 'lightning', keywords: 'zap fast bolt' },
  { emoji: '🌱', name: 'seedling', keywords: 'new grow' },
  { emoji: '🦄', name: 'unicorn', keywords: 'magic' },
  { emoji: '🐢', name: 'turtle', keywords: 'slow' },
  { emoji: '🐙', name: 'octopus' },
  { emoji: '🤖', name: 'robot', keywords: 'bot automation' },
  { emoji: '👻', name: 'ghost', keywords: 'boo' },
  { emoji: '💩', name: 'pile of poo', keywords: 'poop' },
  { emoji: '💔', name: 'broken heart', keywords: 'sad' },
  { emoji: '💙', name: 'blue heart', keywords: 'love' },
  { emoji: '💚', name: 'green heart', keywords: 'love' },
  { emoji: '💜', name: 'purple heart', keywords: 'love' },
  { emoji: '🧡', name: 'orange heart', keywords: 'love' },
  { emoji: '💛', name: 'yellow heart', keywords: 'love' },
  { emoji: '➕', name: 'plus', keywords: 'add +1' },
  { emoji: '➖', name: 'minus', keywords: 'remove -1' },
  { emoji: '⬆️', name: 'up arrow', keywords: 'upvote' },
  { emoji: '⬇️', name: 'down arrow', keywords: 'downvote' },
  { emoji: '🆗', name: 'ok button', keywords: 'okay' },
  { emoji: '🆕', name: 'new button', keywords: 'new' },
  { emoji: '🚢', name: 'ship', keywords: 'shipit release' },
  { emoji: '✈️', name: 'airplane', keywords: 'travel' },
  { emoji: '🏠', name: 'house', keywords: 'home' }
]

const ALL: readonly ReactionEmoji[] = [...QUICK_REACTIONS, ...MORE_REACTIONS]

/**
 * The emoji whose name or words start with every typed word (case-insensitive), quick reactions first; with
 * nothing typed, all of them. A typed emoji finds itself.
 */
export function searchReactions(query: string, list: readonly ReactionEmoji[] = ALL): ReactionEmoji[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...list]
  return list.filter((r) => {
    const tokens = `${r.name} ${r.keywords ?? ''}`.toLowerCase().split(/\s+/)
    return words.every((w) => r.emoji === w || tokens.some((t) => t.startsWith(w)))
  })
}

/** A reaction's name for a label ("🚀 rocket"); an emoji not in the set is named by itself. */
export function reactionName(emoji: string): string {
  return ALL.find((r) => r.emoji === emoji)?.name ?? emoji
}
