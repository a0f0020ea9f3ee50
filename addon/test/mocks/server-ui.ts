// Stand-in for @minecraft/server-ui: ModalFormData answers with responses queued by the test.
import type { Player } from "./server.js";

export enum FormCancelationReason {
  UserBusy = "UserBusy",
  UserClosed = "UserClosed",
}

export interface MockFormResponse {
  canceled: boolean;
  cancelationReason?: FormCancelationReason;
  formValues?: (string | number | boolean | undefined)[];
}

export const ui = {
  responses: [] as MockFormResponse[],
  shown: [] as { player: string; title: string; fields: string[] }[],
  reset(): void {
    this.responses = [];
    this.shown = [];
  },
};

export class ModalFormData {
  private titleText = "";
  private readonly fields: string[] = [];

  title(text: string): this {
    this.titleText = text;
    return this;
  }
  textField(label: string, _placeholder: string): this {
    this.fields.push(label);
    return this;
  }
  submitButton(_text: string): this {
    return this;
  }
  show(player: Player): Promise<MockFormResponse> {
    ui.shown.push({ player: player.name, title: this.titleText, fields: [...this.fields] });
    return Promise.resolve(ui.responses.shift() ?? { canceled: true, cancelationReason: FormCancelationReason.UserClosed });
  }
}
