import { describe, expect, it } from 'vitest'
import {
  configurationErrors,
  formFields,
  formState,
  isComplete,
  valuesFromForm,
  type ConfigurationSchema
} from './integrationConfiguration'

const schema: ConfigurationSchema = {
  properties: {
    channel: { type: 'string', title: 'Channel', description: 'Where to post' },
    retries: { type: 'number', default: 3 },
    verbose: { type: 'boolean' },
    level: { type: 'string', enum: ['info', 'debug'] },
    sampling: { type: 'number', enum: [10, 100] },
    connect: { type: 'button', button_text: 'Connect' }
  },
  required: ['channel', 'level']
}

describe('formFields', () => {
  it('makes one field per value-holding property: text, number, checkbox, select; required marked; buttons left out', () => {
    expect(formFields(schema)).toEqual([
      { name: 'channel', kind: 'text', label: 'Channel', description: 'Where to post', required: true },
      { name: 'retries', kind: 'number', label: 'retries', required: false },
      { name: 'verbose', kind: 'checkbox', label: 'verbose', required: false },
      {
        name: 'level',
        kind: 'select',
        label: 'level',
        required: true,
        options: [
          { label: 'info', value: 'info' },
          { label: 'debug', value: 'debug' }
        ]
      },
      {
        name: 'sampling',
        kind: 'select',
        label: 'sampling',
        required: false,
        options: [
          { label: '10', value: '10' },
          { label: '100', value: '100' }
        ]
      }
    ])
    expect(formFields(undefined)).toEqual([])
  })
})

describe('formState and valuesFromForm', () => {
  it('starts from the stored values, else the defaults, and turns the form back into typed values', () => {
    expect(formState(schema, undefined)).toEqual({ channel: '', retries: '3', verbose: false, level: '', sampling: '' })
    const state = formState(schema, { channel: '#docs', verbose: true, sampling: 100, own: 'state' })
    expect(state).toEqual({ channel: '#docs', retries: '3', verbose: true, level: '', sampling: '100' })
    expect(valuesFromForm(schema, { ...state, level: 'debug', retries: ' 5 ' }, { own: 'state', channel: 'old' })).toEqual({
      own: 'state',
      channel: '#docs',
      retries: 5,
      verbose: true,
      level: 'debug',
      sampling: 100
    })
    // Empty text is left out; text that is no number stays text, for the server to refuse on its field.
    expect(valuesFromForm(schema, { channel: ' ', retries: 'many', verbose: false, level: '', sampling: '' })).toEqual({
      retries: 'many',
      verbose: false
    })
  })
})

describe('configurationErrors', () => {
  it('names each property whose value the schema refuses; required only when complete; unknown names pass', () => {
    const values = { retries: 'x', verbose: 1, level: 'trace', sampling: 10, connect: 'go', other: { any: 1 } }
    expect(configurationErrors(schema, values, true)).toEqual([
      { name: 'channel', message: 'is required' },
      { name: 'retries', message: 'must be number' },
      { name: 'verbose', message: 'must be boolean' },
      { name: 'level', message: 'must be one of "info", "debug"' },
      { name: 'connect', message: 'is a button and holds no value' }
    ])
    expect(configurationErrors(schema, { channel: '#a' }, false)).toEqual([])
    expect(configurationErrors(undefined, { anything: 1 }, true)).toEqual([])
    expect(isComplete(schema, { channel: '#a', level: 'info' })).toBe(true)
    expect(isComplete(schema, { channel: '#a', level: '' })).toBe(false)
  })
})
