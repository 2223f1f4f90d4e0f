// Every domain the simulator runs. A domain not listed here is kept as declared, without services.
import type { DomainModule } from '../domain.js';
import { alarmControlPanel } from './alarm.js';
import { automation } from './automation.js';
import { camera } from './camera.js';
import { climate } from './climate.js';
import { cover, valve } from './cover.js';
import { fan } from './fan.js';
import { homeassistant } from './homeassistant.js';
import { light } from './light.js';
import { lock } from './lock.js';
import { mediaPlayer } from './media-player.js';
import { notify, persistentNotification } from './notify.js';
import { binarySensor, sensor, weather } from './passive.js';
import { scene } from './scene.js';
import { script } from './script.js';
import { inputBoolean, switchDomain } from './switch.js';
import { vacuum } from './vacuum.js';
import { counter, inputButton, inputDatetime, inputNumber, inputSelect, inputText, timer } from './helpers.js';

export const DOMAIN_MODULES: readonly DomainModule[] = [
  homeassistant,
  light,
  switchDomain,
  inputBoolean,
  inputNumber,
  inputSelect,
  inputText,
  inputDatetime,
  inputButton,
  counter,
  timer,
  climate,
  cover,
  valve,
  lock,
  fan,
  vacuum,
  mediaPlayer,
  alarmControlPanel,
  scene,
  script,
  automation,
  notify,
  persistentNotification,
  sensor,
  binarySensor,
  weather,
  camera,
];
