import { assetConfig } from '../shared/config.js';
import type { Urls } from './views.js';

export const PLACEHOLDER_COVER_KEY = 'static/cover-placeholder.png';

export function urlsFor(base: string): Urls {
  const { publicUrl } = assetConfig();
  return {
    base,
    asset: (key: string) => `${publicUrl}/${key.split('/').map(encodeURIComponent).join('/')}`,
    placeholderCover: `${publicUrl}/${PLACEHOLDER_COVER_KEY}`,
  };
}
