import type { GroupInput } from '../../src/store/groups.js';
import type { SceneInput } from '../../src/store/scenes.js';

export declare const sceneFor: (n: number) => SceneInput;
export declare const groupFor: (n: number) => GroupInput;
