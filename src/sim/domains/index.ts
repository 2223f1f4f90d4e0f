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
import { binarySensor, sensor } from './passive.js';
import { calendar } from './calendar.js';
import { todo } from './todo.js';
import { weather } from './weather.js';
import { scene } from './scene.js';
import { script } from './script.js';
import { inputBoolean, switchDomain } from './switch.js';
import { vacuum } from './vacuum.js';
import { button, date, datetime, event, humidifier, image, lawnMower, number, remote, select, siren, text, time, update, waterHeater } from './devices.js';
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
  number,
  select,
  button,
  siren,
  waterHeater,
  humidifier,
  lawnMower,
  remote,
  text,
  date,
  time,
  datetime,
  update,
  image,
  event,
  calendar,
  todo,
  camera,
];
