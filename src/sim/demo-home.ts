// The built-in demo home: two floors, eight areas, every simulated domain, some entities on
// devices (their own area left empty so the device's area applies), labels, and scenes,
// scripts and automations with behaviour. Built as data; a fresh copy per call.
import type { Home } from './home.js';

export function demoHome(): Home {
  return structuredClone(DEMO);
}

const DEMO: Home = {
  name: 'Sim Home',
  time_zone: 'Europe/Amsterdam',
  unit_system: 'metric',
  floors: [
    { id: 'ground_floor', name: 'Ground Floor', level: 0, aliases: ['downstairs'] },
    { id: 'first_floor', name: 'First Floor', level: 1, aliases: ['upstairs'] },
  ],
  labels: [
    { id: 'security', name: 'Security', color: 'red', icon: 'mdi:shield-home' },
    { id: 'energy', name: 'Energy', color: 'green', icon: 'mdi:lightning-bolt' },
    { id: 'entertainment', name: 'Entertainment', color: 'purple', icon: 'mdi:television' },
  ],
  areas: [
    { id: 'living_room', name: 'Living Room', floor: 'ground_floor', aliases: ['lounge'], icon: 'mdi:sofa' },
    { id: 'kitchen', name: 'Kitchen', floor: 'ground_floor', icon: 'mdi:stove' },
    { id: 'hallway', name: 'Hallway', floor: 'ground_floor', labels: ['security'] },
    { id: 'garage', name: 'Garage', floor: 'ground_floor', icon: 'mdi:garage' },
    { id: 'bedroom', name: 'Bedroom', floor: 'first_floor', icon: 'mdi:bed' },
    { id: 'office', name: 'Office', floor: 'first_floor', aliases: ['study'] },
    { id: 'bathroom', name: 'Bathroom', floor: 'first_floor' },
    { id: 'garden', name: 'Garden', floor: null, aliases: ['backyard'] },
  ],
  devices: [
    { id: 'living_room_tv', name: 'Living Room TV', area: 'living_room', manufacturer: 'Simsung', model: 'QE55', labels: ['entertainment'] },
    { id: 'kitchen_light_strip', name: 'Kitchen Light Strip', area: 'kitchen', manufacturer: 'Lumen', model: 'Strip RGB' },
    { id: 'hallway_thermostat', name: 'Hallway Thermostat', area: 'hallway', manufacturer: 'Thermo', model: 'T6' },
    { id: 'front_door_lock', name: 'Front Door Lock', area: 'hallway', manufacturer: 'Lockly', model: 'Secure Pro' },
    { id: 'alarm_panel', name: 'Alarm Panel', area: 'hallway', manufacturer: 'Guard', model: 'Panel 2' },
    { id: 'robot_vacuum', name: 'Robot Vacuum', area: 'living_room', manufacturer: 'Robo', model: 'S7' },
  ],
  // Legacy notify services (mobile_app still makes them); the kitchen display below is a notify
  // entity, which notify.send_message reaches (Home Assistant 2024.5 on).
  notify: ['mobile_app_phone', 'living_room_tv'],
  entities: [
    { entity_id: 'notify.kitchen_display', name: 'Kitchen Display', area: 'kitchen', attributes: { supported_features: 1 } },
    // --- lights -------------------------------------------------------------------------------
    {
      entity_id: 'light.living_room_ceiling',
      name: 'Living Room Ceiling',
      area: 'living_room',
      state: 'on',
      attributes: { supported_color_modes: ['color_temp', 'hs'], brightness: 180, color_mode: 'color_temp', color_temp_kelvin: 2700 },
    },
    {
      entity_id: 'light.living_room_lamp',
      name: 'Living Room Lamp',
      area: 'living_room',
      state: 'on',
      attributes: { supported_color_modes: ['color_temp', 'hs'], brightness: 128, color_temp_kelvin: 2700 },
    },
    {
      entity_id: 'light.kitchen_ceiling',
      name: 'Kitchen Ceiling',
      area: 'kitchen',
      state: 'on',
      attributes: { supported_color_modes: ['color_temp'], brightness: 255, color_temp_kelvin: 4000 },
    },
    {
      entity_id: 'light.kitchen_strip',
      name: 'Kitchen Strip',
      device: 'kitchen_light_strip',
      state: 'off',
      attributes: { supported_color_modes: ['hs'], effect_list: ['rainbow', 'colorloop', 'none'], supported_features: 44, hs_color: [30, 80] },
    },
    { entity_id: 'light.bedroom_lamp', name: 'Bedroom Lamp', area: 'bedroom', state: 'off', attributes: { supported_color_modes: ['color_temp', 'xy'] } },
    { entity_id: 'light.office_desk', name: 'Office Desk Lamp', area: 'office', state: 'off', attributes: { supported_color_modes: ['brightness'] } },
    {
      entity_id: 'light.hallway',
      name: 'Hallway Light',
      area: 'hallway',
      state: 'off',
      attributes: { supported_color_modes: ['onoff'], supported_features: 0 },
    },
    { entity_id: 'light.garden_lights', name: 'Garden Lights', area: 'garden', state: 'off', attributes: { supported_color_modes: ['rgb'] } },
    // --- switches and helpers ------------------------------------------------------------------
    { entity_id: 'switch.coffee_maker', name: 'Coffee Maker', area: 'kitchen', state: 'off', labels: ['energy'], attributes: { device_class: 'outlet' } },
    { entity_id: 'switch.christmas_lights', name: 'Christmas Lights', area: 'living_room', state: 'off', attributes: { device_class: 'outlet' } },
    { entity_id: 'switch.office_heater', name: 'Office Heater', area: 'office', state: 'off', labels: ['energy'], attributes: { device_class: 'switch' } },
    { entity_id: 'input_boolean.guest_mode', name: 'Guest Mode', state: 'off', attributes: { icon: 'mdi:account-multiple' } },
    { entity_id: 'input_boolean.vacation_mode', name: 'Vacation Mode', state: 'off', attributes: { icon: 'mdi:airplane' } },
    // --- climate -------------------------------------------------------------------------------
    {
      entity_id: 'climate.hallway',
      name: 'Hallway Thermostat',
      device: 'hallway_thermostat',
      state: 'heat',
      attributes: {
        hvac_modes: ['off', 'heat', 'cool', 'auto'],
        preset_modes: ['home', 'away', 'eco'],
        preset_mode: 'home',
        current_temperature: 20.5,
        temperature: 21,
        target_temp_step: 0.5,
      },
    },
    {
      entity_id: 'climate.bedroom',
      name: 'Bedroom Air Conditioner',
      area: 'bedroom',
      state: 'heat_cool',
      attributes: {
        hvac_modes: ['off', 'heat_cool', 'heat', 'cool', 'fan_only'],
        fan_modes: ['auto', 'low', 'high'],
        fan_mode: 'auto',
        current_temperature: 22,
        target_temp_low: 18,
        target_temp_high: 24,
        current_humidity: 48,
        min_temp: 10,
        max_temp: 30,
        supported_features: 2 | 8 | 128 | 256,
      },
    },
    // --- covers --------------------------------------------------------------------------------
    {
      entity_id: 'cover.living_room_blinds',
      name: 'Living Room Blinds',
      area: 'living_room',
      state: 'open',
      attributes: { device_class: 'blind', current_position: 100, current_tilt_position: 50, supported_features: 255 },
    },
    {
      entity_id: 'cover.garage_door',
      name: 'Garage Door',
      area: 'garage',
      state: 'closed',
      labels: ['security'],
      attributes: { device_class: 'garage', supported_features: 11 },
    },
    {
      entity_id: 'cover.bedroom_curtains',
      name: 'Bedroom Curtains',
      area: 'bedroom',
      state: 'closed',
      attributes: { device_class: 'curtain', current_position: 0 },
    },
    // --- locks ---------------------------------------------------------------------------------
    {
      entity_id: 'lock.front_door',
      name: 'Front Door',
      device: 'front_door_lock',
      state: 'locked',
      labels: ['security'],
      attributes: { code_format: '^\\d{4}$' },
    },
    { entity_id: 'lock.back_door', name: 'Back Door', area: 'kitchen', state: 'unlocked', labels: ['security'] },
    { entity_id: 'lock.garage_side_door', name: 'Garage Side Door', area: 'garage', state: 'jammed', config: { jam_on_lock: true } },
    { entity_id: 'lock.garden_gate', name: 'Garden Gate', area: 'garden', state: 'locked', attributes: { supported_features: 1 } },
    // --- fans ----------------------------------------------------------------------------------
    {
      entity_id: 'fan.living_room_fan',
      name: 'Living Room Fan',
      area: 'living_room',
      state: 'off',
      attributes: {
        percentage: 0,
        percentage_step: 100 / 3,
        preset_modes: ['auto', 'smart', 'sleep', 'on'],
        preset_mode: null,
        oscillating: false,
        direction: 'forward',
        supported_features: 63,
      },
    },
    { entity_id: 'fan.bedroom_fan', name: 'Bedroom Fan', area: 'bedroom', state: 'on', attributes: { percentage: 50, supported_features: 1 | 16 | 32 } },
    // --- vacuum --------------------------------------------------------------------------------
    {
      entity_id: 'vacuum.robot_vacuum',
      name: 'Robot Vacuum',
      device: 'robot_vacuum',
      state: 'docked',
      attributes: { fan_speed_list: ['min', 'medium', 'high', 'max'], fan_speed: 'medium', battery_level: 100 },
    },
    // --- media players -------------------------------------------------------------------------
    {
      entity_id: 'media_player.living_room_tv',
      name: 'Living Room TV',
      device: 'living_room_tv',
      state: 'off',
      attributes: { source_list: ['HDMI 1', 'HDMI 2', 'Netflix', 'YouTube'], source: 'HDMI 1', volume_level: 0.3, device_class: 'tv' },
    },
    {
      entity_id: 'media_player.kitchen_speaker',
      name: 'Kitchen Speaker',
      area: 'kitchen',
      state: 'playing',
      attributes: {
        volume_level: 0.4,
        media_content_type: 'music',
        media_title: 'Morning Jazz',
        media_artist: 'Sim Quartet',
        media_track: 1,
        device_class: 'speaker',
      },
      config: { playlist: ['Morning Jazz', 'Blue Hour', 'Late Train'] },
    },
    {
      entity_id: 'media_player.bedroom_speaker',
      name: 'Bedroom Speaker',
      area: 'bedroom',
      state: 'idle',
      attributes: { volume_level: 0.2, device_class: 'speaker' },
    },
    // --- alarm ---------------------------------------------------------------------------------
    {
      entity_id: 'alarm_control_panel.security',
      name: 'Security',
      device: 'alarm_panel',
      state: 'disarmed',
      labels: ['security'],
      config: { code: '1234', code_arm_required: true },
    },
    // --- scenes, scripts, automations ----------------------------------------------------------
    {
      entity_id: 'scene.movie_night',
      name: 'Movie Night',
      area: 'living_room',
      config: {
        entities: {
          'light.living_room_ceiling': { state: 'on', brightness: 40 },
          'light.living_room_lamp': 'off',
          'media_player.living_room_tv': 'on',
          'cover.living_room_blinds': 'closed',
        },
      },
    },
    {
      entity_id: 'scene.good_morning',
      name: 'Good Morning',
      area: 'bedroom',
      config: {
        entities: {
          'light.bedroom_lamp': { state: 'on', brightness: 200, color_temp_kelvin: 4000 },
          'cover.bedroom_curtains': 'open',
          'switch.coffee_maker': 'on',
        },
      },
    },
    {
      entity_id: 'script.goodnight',
      name: 'Goodnight',
      config: {
        description: 'Turns off every light, locks the back door and arms the alarm for the night.',
        sequence: [
          { action: 'light.turn_off', target: { entity_id: 'all' } },
          { action: 'lock.lock', target: { entity_id: 'lock.back_door' } },
          { action: 'alarm_control_panel.alarm_arm_night', target: { entity_id: 'alarm_control_panel.security' }, data: { code: '1234' } },
        ],
      },
    },
    {
      entity_id: 'script.welcome_home',
      name: 'Welcome Home',
      config: {
        description: 'Lights the hallway and says hello.',
        sequence: [
          { action: 'light.turn_on', target: { area_id: 'hallway' } },
          { delay: { milliseconds: 50 } },
          { action: 'notify.mobile_app_phone', data: { message: 'Welcome home!' } },
        ],
      },
    },
    {
      entity_id: 'automation.hallway_motion_light',
      name: 'Hallway motion light',
      state: 'on',
      config: { actions: [{ action: 'light.turn_on', target: { entity_id: 'light.hallway' } }] },
    },
    {
      entity_id: 'automation.garden_lights_at_sunset',
      name: 'Garden lights at sunset',
      state: 'on',
      config: { actions: [{ action: 'light.turn_on', target: { entity_id: 'light.garden_lights' }, data: { color_name: 'orange' } }] },
    },
    // --- sensors -------------------------------------------------------------------------------
    {
      entity_id: 'sensor.hallway_temperature',
      name: 'Hallway Temperature',
      device: 'hallway_thermostat',
      state: '20.5',
      attributes: { device_class: 'temperature', unit_of_measurement: '°C', state_class: 'measurement' },
    },
    {
      // On the hallway thermostat's device but placed (its own area) in the bathroom.
      entity_id: 'sensor.bathroom_humidity',
      name: 'Bathroom Humidity',
      device: 'hallway_thermostat',
      area: 'bathroom',
      state: '55',
      attributes: { device_class: 'humidity', unit_of_measurement: '%', state_class: 'measurement' },
    },
    {
      entity_id: 'sensor.outdoor_temperature',
      name: 'Outdoor Temperature',
      area: 'garden',
      state: '12.3',
      attributes: { device_class: 'temperature', unit_of_measurement: '°C', state_class: 'measurement' },
    },
    {
      entity_id: 'sensor.power_consumption',
      name: 'Power Consumption',
      state: '432',
      labels: ['energy'],
      attributes: { device_class: 'power', unit_of_measurement: 'W', state_class: 'measurement' },
    },
    {
      entity_id: 'sensor.front_door_lock_battery',
      name: 'Front Door Lock Battery',
      device: 'front_door_lock',
      entity_category: 'diagnostic',
      state: '87',
      attributes: { device_class: 'battery', unit_of_measurement: '%', state_class: 'measurement' },
    },
    {
      entity_id: 'binary_sensor.front_door_contact',
      name: 'Front Door',
      area: 'hallway',
      state: 'off',
      labels: ['security'],
      attributes: { device_class: 'door' },
    },
    { entity_id: 'binary_sensor.hallway_motion', name: 'Hallway Motion', area: 'hallway', state: 'off', attributes: { device_class: 'motion' } },
    { entity_id: 'binary_sensor.kitchen_smoke', name: 'Kitchen Smoke', area: 'kitchen', state: 'off', attributes: { device_class: 'smoke' } },
    // The kinds without a tool of their own (control_entity acts on them).
    {
      entity_id: 'siren.garage_siren',
      name: 'Garage Siren',
      area: 'garage',
      state: 'off',
      attributes: { available_tones: ['fire', 'alarm'], supported_features: 31 },
    },
    {
      entity_id: 'water_heater.boiler',
      name: 'Boiler',
      area: 'garage',
      state: 'eco',
      attributes: { min_temp: 40, max_temp: 65, temperature: 50, operation_list: ['eco', 'performance', 'off'], supported_features: 11 },
    },
    { entity_id: 'lawn_mower.garden_mower', name: 'Garden Mower', area: 'garden', state: 'docked', attributes: { supported_features: 15 } },
    {
      entity_id: 'number.mower_cutting_height',
      name: 'Mower Cutting Height',
      area: 'garden',
      state: '40',
      attributes: { min: 20, max: 60, step: 5, unit_of_measurement: 'mm' },
    },
    { entity_id: 'select.mower_mode', name: 'Mower Mode', area: 'garden', state: 'quiet', attributes: { options: ['quiet', 'normal', 'turbo'] } },
    { entity_id: 'input_number.irrigation_minutes', name: 'Irrigation Minutes', area: 'garden', state: '10.0', attributes: { min: 0, max: 60, step: 1 } },
    {
      entity_id: 'update.bridge_firmware',
      name: 'Bridge Firmware',
      state: 'on',
      attributes: { installed_version: '1.0.0', latest_version: '1.1.0', title: 'Bridge', supported_features: 1 },
    },
    {
      entity_id: 'weather.home',
      name: 'Home',
      state: 'sunny',
      attributes: {
        temperature: 12.3,
        humidity: 60,
        pressure: 1013,
        wind_speed: 9.4,
        pressure_unit: 'hPa',
        wind_speed_unit: 'km/h',
        visibility_unit: 'km',
        precipitation_unit: 'mm',
        supported_features: 3,
      },
    },
    // Calendars and to-do lists: events and items in config (days count from the day the simulator starts).
    {
      entity_id: 'calendar.family',
      name: 'Family',
      config: {
        events: [
          { summary: 'Dentist', day: 1, time: '10:00', minutes: 45, location: 'Main Street 4' },
          { summary: 'Bins out', day: 0, time: '19:00', minutes: 15, rrule: 'FREQ=WEEKLY;COUNT=8' },
          { summary: 'Swimming', day: 2, time: '17:30', minutes: 60, rrule: 'FREQ=DAILY;INTERVAL=7;COUNT=4' },
          { summary: 'Grandma visiting', day: 3, days: 2 },
        ],
      },
    },
    {
      entity_id: 'calendar.public_holidays',
      name: 'Public holidays',
      attributes: { supported_features: 0 },
      config: { events: [{ summary: 'Bank holiday', day: 5 }] },
    },
    {
      entity_id: 'todo.shopping_list',
      name: 'Shopping List',
      attributes: { supported_features: 15 },
      config: { items: ['Bread', 'Coffee', { summary: 'Eggs', status: 'completed' }] },
    },
    {
      entity_id: 'todo.chores',
      name: 'Chores',
      attributes: { supported_features: 127 },
      config: { items: [{ summary: 'Clean the gutters', due: '2030-05-01', description: 'Both sides' }, 'Water the plants'] },
    },
  ],
};
