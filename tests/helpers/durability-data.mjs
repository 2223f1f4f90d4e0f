// What the durability writer writes for write number n, so the test can check it read back.
export const sceneFor = (n) => ({
  id: `scene_${n}`,
  name: `Scene ${n} '; DROP TABLE scenes; --`,
  description: `written ${n}`.padEnd(50 + (n % 200), '.'),
  actions: Array.from({ length: 1 + (n % 7) }, (_, i) => ({ entity_id: `light.l${i}`, action: 'turn_on', parameters: { brightness_pct: (n + i) % 101 } })),
});

export const groupFor = (n) => ({ id: `group_${n}`, name: `Group ${n}`, entities: Array.from({ length: 1 + (n % 5) }, (_, i) => `switch.s${n}_${i}`) });
