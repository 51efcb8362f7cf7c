export interface Provider {
  name: string;
  complete(prompt: string): Promise<string>;
}
